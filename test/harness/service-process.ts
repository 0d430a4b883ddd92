/**
 * Runs the compiled service (`dist/src/main.js`, built by `npm test` before jest) as a real child
 * process, the way `npm start` does, and reads the addresses from its banner.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';

export interface ServiceProcess {
  child: ChildProcess;
  apiUrl: string;
  /** The sandbox provider's URL, when the banner shows one. */
  sandboxUrl?: string;
  /** Embedded PostgreSQL port, when the banner shows one. */
  databasePort?: number;
  output: () => string;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

const MAIN = join(__dirname, '..', '..', 'dist', 'src', 'main.js');

export function startService(env: Record<string, string>, timeoutMs = 60_000): Promise<ServiceProcess> {
  const child = spawn(process.execPath, [MAIN], {
    env: { ...process.env, PORT: '0', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => fail(new Error(`service did not start within ${timeoutMs} ms:\n${output}`)), timeoutMs);
    const fail = (error: Error) => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(error);
    };
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const api = /api\s+(http:\/\/\S+)/.exec(output);
      if (!api) return;
      clearTimeout(timer);
      const db = /embedded PostgreSQL on 127\.0\.0\.1:(\d+)/.exec(output);
      const sandbox = /sandbox at (http:\/\/\S+)/.exec(output);
      resolve({
        child,
        apiUrl: api[1],
        sandboxUrl: sandbox?.[1],
        databasePort: db ? Number(db[1]) : undefined,
        output: () => output,
        stop: async (signal = 'SIGTERM') => {
          child.kill(signal);
          return exited;
        },
      });
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    void exited.then((code) => fail(new Error(`service exited with ${code} before it was ready:\n${output}`)));
  });
}

/** Runs the service expecting it to refuse to start; resolves with its exit code and output. */
export function runServiceToExit(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, [MAIN], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, output })));
}
