/**
 * Runs one benchmark contender in its own Node process (DESIGN.md §10: loading Emmett changes `pg`'s
 * type parsing for the whole process, so contenders must never share one). The parent passes a JSON
 * input, the child answers with one JSON result over the IPC channel. The child's stdout is sent to
 * the parent's stderr, so the parent's stdout stays reserved for its own summary and final JSON line.
 */
import { fork } from 'node:child_process';
import { resolve } from 'node:path';

const REGISTER = resolve(__dirname, 'register.js');

type Message<R> = { ok: true; result: R } | { ok: false; error: string };

/** Starts `script` (a .ts file) with the swc hook, sends it `input`, resolves with what it answers. */
export function runChild<I, R>(script: string, input: I, options: { timeoutMs?: number } = {}): Promise<R> {
  return new Promise((resolvePromise, reject) => {
    const child = fork(resolve(script), [], {
      execArgv: [...process.execArgv.filter((arg) => !arg.startsWith('--inspect')), '-r', REGISTER],
      env: { ...process.env, BENCH_CHILD_INPUT: JSON.stringify(input) },
      stdio: ['ignore', process.stderr, 'inherit', 'ipc'],
    });
    let answer: Message<R> | undefined;
    const timer = options.timeoutMs
      ? setTimeout(() => {
          child.kill('SIGKILL');
          reject(new Error(`${script} did not finish within ${options.timeoutMs} ms`));
        }, options.timeoutMs)
      : undefined;
    child.on('message', (message: Message<R>) => {
      answer = message;
    });
    child.on('error', (error) => {
      if (timer) clearTimeout(timer);
      reject(error);
    });
    child.on('exit', (code, signal) => {
      if (timer) clearTimeout(timer);
      if (answer?.ok) resolvePromise(answer.result);
      else if (answer) reject(new Error(`${script}: ${answer.error}`));
      else reject(new Error(`${script} exited (code ${code}, signal ${signal}) without a result`));
    });
  });
}

/** The child side: reads the input, runs `main`, reports the result (or the error) and exits. */
export function childMain<I, R>(main: (input: I) => Promise<R>): void {
  const raw = process.env.BENCH_CHILD_INPUT;
  if (!raw || !process.send) {
    console.error('This script is a benchmark child: start it through bench/lib/child.ts runChild().');
    process.exit(2);
  }
  main(JSON.parse(raw) as I).then(
    (result) => finish({ ok: true, result }, 0),
    (error: unknown) => finish({ ok: false, error: error instanceof Error ? (error.stack ?? error.message) : String(error) }, 1),
  );
}

function finish(message: Message<unknown>, code: number): void {
  process.send!(message, () => {
    process.disconnect?.();
    process.exit(code);
  });
}
