/**
 * Hosts one EventStoreDB emulator for bench/esdb-append.bench.ts in a process of its own, so that the
 * contender's process holds only the client side and the emulator's CPU can be read from /proc apart.
 * Answers `{ connectionString }` over IPC once listening; closes and exits on "stop" or when orphaned.
 */
import { startEsdbEmulator } from '../../test/esdb-emulator';

async function main(): Promise<void> {
  const emulator = await startEsdbEmulator();
  process.send!({ connectionString: emulator.connectionString });
  const stop = async () => {
    await emulator.close();
    process.exit(0);
  };
  process.on('message', (message) => message === 'stop' && void stop());
  process.on('disconnect', () => void stop());
}

void main();
