/**
 * The real `idem` entry point (src/cli.ts) in a child process, compiled on load (bench/lib/register.js),
 * as an operator runs it: its exit code and what it printed.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';

const ROOT = join(__dirname, '..', '..');
const run = promisify(execFile);

export interface IdemRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `idem <args>` with only PATH and `env` set; `preload`: more modules for `node -r`, after the TypeScript hook. */
export function runIdem(env: Record<string, string>, args: string[], preload: string[] = []): Promise<IdemRun> {
  const requires = [join(ROOT, 'bench', 'lib', 'register.js'), ...preload].flatMap((module) => ['-r', module]);
  return run(process.execPath, [...requires, join(ROOT, 'src', 'cli.ts'), ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', ...env },
    timeout: 90_000,
  }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, stdout: error.stdout, stderr: error.stderr }),
  );
}
