/**
 * The emulator as a process of its own (main.ts), for tests that pause it (SIGSTOP / SIGCONT) as a
 * frozen server: a paused process keeps its connections open and answers nothing, which an emulator in
 * the test's own process cannot do. Free port; resolves once it is listening.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

const ROOT = join(__dirname, '..', '..');

export async function startEmulatorProcess(): Promise<{ child: ChildProcess; connectionString: string }> {
  const child = spawn(process.execPath, ['-r', join(ROOT, 'bench', 'lib', 'register.js'), join(__dirname, 'main.ts')], {
    cwd: ROOT,
    env: { ...process.env, ESDB_EMULATOR_PORT: '0' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let connectionString: string | undefined;
  for await (const line of createInterface({ input: child.stdout! })) {
    connectionString = /listening: (esdb:\/\/\S+)/.exec(line)?.[1];
    if (connectionString) break;
  }
  child.stdout!.resume();
  if (!connectionString) throw new Error(`the emulator exited (${child.exitCode}) before it was listening`);
  return { child, connectionString };
}
