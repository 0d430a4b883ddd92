/** The hello ceiling: a bare NestJS route on the same platform, in its own process. */
import { spawn, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';
import { percentile } from '../lib/stats';
import { AUTH } from './config';
import { read, split, type CpuSplit } from './cpu-split';
import { runLoad } from './http-load';
import { orderBody } from './charge-round';
import type { Context } from './phase';
import { REPO } from './service';

export interface Hello {
  child: ChildProcess;
  url: string;
  stop(): Promise<void>;
}

export function startHello(): Promise<Hello> {
  const child = spawn(process.execPath, ['-r', resolve(REPO, 'bench/lib/register.js'), resolve(__dirname, 'hello-app.ts')], {
    cwd: REPO,
    env: { ...process.env, NODE_ENV: 'production' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  return new Promise((resolvePromise, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`hello app did not start:\n${output}`));
    }, 60_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /hello listening on (http:\/\/\S+)/.exec(output);
      if (!match) return;
      clearTimeout(timer);
      resolvePromise({
        child,
        url: match[1],
        stop: async () => {
          if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
          await exited;
        },
      });
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    void exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`hello app exited:\n${output}`));
    });
  });
}

export interface HelloResult {
  rps: number;
  p50Ms: number;
  p99Ms: number;
  non2xx: number;
  errors: number;
  cpu: CpuSplit;
}

export async function helloRound(hello: Hello, ctx: Context, seconds: number): Promise<HelloResult> {
  const before = read(ctx.pids);
  let ok = 0;
  const load = await runLoad({
    url: hello.url,
    concurrency: ctx.config.concurrency,
    headers: AUTH,
    durationMs: seconds * 1000,
    request: (i) => ({ method: 'POST', path: `/v1/orders/hello-${i}/charge`, body: orderBody(i) }),
    onAnswer: (_, answer) => {
      if (answer.status === 202) ok++;
    },
  });
  const after = read(ctx.pids);
  return {
    rps: ok / (load.elapsedMs / 1000),
    p50Ms: percentile(load.latenciesMs, 50),
    p99Ms: percentile(load.latenciesMs, 99),
    non2xx: load.answered - ok,
    errors: load.errors,
    cpu: split(before, after),
  };
}
