/**
 * `npm run esdb-emulator`: the emulator as a process of its own (main.ts), which the service and the
 * CLI reach through the connection string it prints, as they would a server.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { EventStoreDBClient, jsonEvent } from '@eventstore/db-client';
import { streamName } from './fidelity-helpers';

const ROOT = join(__dirname, '..', '..');

function startEmulatorProcess(): { child: ChildProcess; connectionString: Promise<string>; exited: Promise<number | null> } {
  const child = spawn(process.execPath, ['-r', join(ROOT, 'bench', 'lib', 'register.js'), join(__dirname, 'main.ts')], {
    cwd: ROOT,
    env: { ...process.env, ESDB_EMULATOR_PORT: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  let output = '';
  const connectionString = new Promise<string>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const printed = /listening: (esdb:\/\/\S+)/.exec(output);
      if (printed) resolve(printed[1]);
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    void exited.then((code) => reject(new Error(`the emulator exited with ${code} before listening:\n${output}`)));
  });
  return { child, connectionString, exited };
}

describe('npm run esdb-emulator', () => {
  it('serves the client at the connection string it prints, and exits cleanly on SIGTERM', async () => {
    const emulator = startEmulatorProcess();
    try {
      const client = EventStoreDBClient.connectionString(await emulator.connectionString);
      const stream = streamName();
      await client.appendToStream(stream, jsonEvent({ type: 'Seen', data: { n: 1 } }), { expectedRevision: 'no_stream' });
      const read = [];
      for await (const resolved of client.readStream(stream)) read.push(resolved.event?.type);
      expect(read).toEqual(['Seen']);
      await client.dispose();
    } finally {
      emulator.child.kill('SIGTERM');
    }
    expect(await emulator.exited).toBe(0);
  });
});
