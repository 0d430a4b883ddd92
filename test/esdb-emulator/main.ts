/**
 * The emulator as a process of its own, so that the whole service can run on the EventStoreDB adapter
 * where no EventStoreDB can (ESDB-NOTES.md, "Running the service on the emulator"):
 *
 *   npm run esdb-emulator            # prints the connection string
 *   EVENT_STORE=esdb EVENTSTORE_CONNECTION_STRING='esdb://127.0.0.1:2113?tls=false' npm start
 *
 * `ESDB_EMULATOR_PORT` picks the port: 2113 by default, the server's own, so the connection string is
 * the one docker-compose.yml's server answers on; 0 picks a free one. The log lives in this process's
 * memory: stopping the emulator (Ctrl+C, SIGTERM) loses every event, as dropping a server's volume would.
 */
import { startEsdbEmulator } from '.';

async function main(): Promise<void> {
  const port = Number(process.env.ESDB_EMULATOR_PORT ?? 2113);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`ESDB_EMULATOR_PORT must be a TCP port 0–65535, got "${process.env.ESDB_EMULATOR_PORT}"`);
  const emulator = await startEsdbEmulator({ port });
  console.log(`EventStoreDB emulator listening: ${emulator.connectionString}`);
  const stop = () => void emulator.close().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
