/**
 * The service under test as its own child process — `node <build>/src/main.js` on embedded defaults,
 * the way `npm start` runs it (test/harness/service-process.ts does the same for the tests) — so its
 * CPU and memory readings are its own. Also: compiling the current source, and the /proc readings the
 * benchmark takes (CPU seconds, RSS, the whole machine's busy time).
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const REPO = resolve(__dirname, '..', '..');

/**
 * Compiles src/, modules/ and projections/ with the project's build config into `outDir`. The
 * benchmark builds into its own directory (under node_modules/.cache, so `require` still finds the
 * project's packages) instead of dist/: other engineers' test runs read dist/ while this runs.
 * Type errors are reported but do not stop the run when tsc still emitted main.js.
 */
export async function buildService(outDir: string, log: (line: string) => void): Promise<string> {
  const tsc = require.resolve('typescript/bin/tsc', { paths: [REPO] });
  const child = spawn(process.execPath, [tsc, '-p', 'tsconfig.build.json', '--outDir', outDir], {
    cwd: REPO,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const code = await new Promise<number | null>((done) => child.once('exit', done));
  const main = join(outDir, 'src', 'main.js');
  if (code !== 0) {
    if (!existsSync(main)) throw new Error(`tsc failed and emitted no ${main}:\n${output}`);
    log(`tsc reported errors (exit ${code}); running what it emitted anyway:\n${output.split('\n').slice(0, 10).join('\n')}`);
  }
  return main;
}

export interface ServiceProcess {
  child: ChildProcess;
  pid: number;
  apiUrl: string;
  sandboxUrl: string;
  /** Superuser URL of the embedded cluster's `idem` database. */
  databaseUrl: string;
  dataDir: string;
  output(): string;
  /** SIGTERM (graceful: the service finishes requests and stops its PostgreSQL), SIGKILL after `graceMs`. */
  stop(graceMs?: number): Promise<number | null>;
}

/**
 * The node flags `npm start` gives the service (package.json's start script, e.g. its heap limit), so
 * that the benchmarks measure the service as users run it.
 */
export function startScriptNodeFlags(): string[] {
  const { scripts } = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
  const words = scripts.start.trim().split(/\s+/);
  if (words[0] !== 'node') throw new Error(`package.json's start script does not begin with "node": ${scripts.start}`);
  return words.slice(1).filter((word) => word.startsWith('-'));
}

/** Variables that would take the service off its embedded defaults. */
const NOT_DEFAULT = /^(DATABASE_URL|EVENT_STORE|EVENTSTORE_CONNECTION_STRING|IDEM_.*|STRIPE_.*|NODE_ENV|HOST|PORT|LOG_LEVEL)$/;

export function startService(
  main: string,
  env: Record<string, string>,
  options: { execArgv?: string[]; timeoutMs?: number } = {},
): Promise<ServiceProcess> {
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([name]) => !NOT_DEFAULT.test(name)));
  const child = spawn(process.execPath, [...(options.execArgv ?? []), main], {
    cwd: REPO,
    env: { ...inherited, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  return new Promise((resolvePromise, reject) => {
    const timeoutMs = options.timeoutMs ?? 120_000;
    const timer = setTimeout(() => fail(new Error(`service did not start within ${timeoutMs} ms:\n${output}`)), timeoutMs);
    let ready = false;
    const fail = (error: Error) => {
      if (ready) return;
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(error);
    };
    const onData = (chunk: Buffer) => {
      // Keep only the tail: the output is read for the banner and for error reports.
      output = (output + chunk.toString()).slice(-20_000);
      if (ready) return;
      const api = /api\s+(http:\/\/\S+)/.exec(output);
      const sandbox = /sandbox at (http:\/\/\S+)/.exec(output);
      const database = /embedded PostgreSQL on 127\.0\.0\.1:(\d+), data in (\S+)/.exec(output);
      if (!api || !sandbox || !/stop with Ctrl\+C/.test(output)) return;
      if (!database) return fail(new Error(`the service is not on embedded PostgreSQL:\n${output}`));
      ready = true;
      clearTimeout(timer);
      resolvePromise({
        child,
        pid: child.pid!,
        apiUrl: api[1],
        sandboxUrl: sandbox[1],
        databaseUrl: `postgres://postgres:idem-embedded@127.0.0.1:${database[1]}/idem`,
        dataDir: database[2],
        output: () => output,
        stop: async (graceMs = 30_000) => {
          if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
          child.kill('SIGTERM');
          const killer = setTimeout(() => child.kill('SIGKILL'), graceMs);
          const code = await exited;
          clearTimeout(killer);
          return code;
        },
      });
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    void exited.then((code) => fail(new Error(`service exited with ${code} before it was ready:\n${output}`)));
  });
}

let ticks: number | undefined;
function ticksPerSecond(): number {
  if (ticks === undefined) {
    try {
      ticks = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
    } catch {
      ticks = 100;
    }
  }
  return ticks;
}

/** utime + stime of one process (all its threads), in seconds; undefined once it is gone. */
export function processCpuSeconds(pid: number | undefined): number | undefined {
  if (!pid) return undefined;
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / ticksPerSecond();
  } catch {
    return undefined;
  }
}

/**
 * CPU seconds of a PostgreSQL server: the postmaster's own time, the time of the children it has
 * reaped (cutime + cstime: backends that exited, e.g. pool connections closed while idle), and the
 * time of its live children. Monotonic, unlike summing live processes only.
 */
export function postgresCpuSeconds(postmasterPid: number | undefined): number | undefined {
  if (!postmasterPid) return undefined;
  const stat = (pid: number): string[] | undefined => {
    try {
      const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
      return text.slice(text.lastIndexOf(')') + 2).split(' ');
    } catch {
      return undefined;
    }
  };
  const own = stat(postmasterPid);
  if (!own) return undefined;
  // Fields after the command: [0] state, [1] ppid, …, [11] utime, [12] stime, [13] cutime, [14] cstime.
  let ticks = Number(own[11]) + Number(own[12]) + Number(own[13]) + Number(own[14]);
  for (const entry of readdirSync('/proc')) {
    const pid = Number(entry);
    if (!Number.isInteger(pid) || pid === postmasterPid) continue;
    const child = stat(pid);
    if (child && Number(child[1]) === postmasterPid) ticks += Number(child[11]) + Number(child[12]);
  }
  return ticks / ticksPerSecond();
}

/** VmRSS and VmHWM (peak resident set) of one process, in MiB. */
export function memoryMb(pid: number | undefined): { rss: number; hwm: number } | undefined {
  if (!pid) return undefined;
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
    return { rss: kb('VmRSS') / 1024, hwm: kb('VmHWM') / 1024 };
  } catch {
    return undefined;
  }
}

/** The whole machine's CPU time from /proc/stat (seconds summed over all cores): busy and total. */
export function machineCpuSeconds(): { busy: number; total: number } | undefined {
  try {
    const line = readFileSync('/proc/stat', 'utf8').split('\n')[0];
    const [user, nice, system, idle, iowait, irq, softirq, steal] = line.trim().split(/\s+/).slice(1).map(Number);
    const busy = user + nice + system + irq + softirq + (steal || 0);
    return { busy: busy / ticksPerSecond(), total: (busy + idle + iowait) / ticksPerSecond() };
  } catch {
    return undefined;
  }
}

/**
 * Cumulative µs during which at least one runnable task waited for a CPU (/proc/pressure/cpu "some"
 * total): the delta over a window, divided by its length, is the share of time the CPUs were contended.
 */
export function cpuPressureUs(): number | undefined {
  try {
    const some = readFileSync('/proc/pressure/cpu', 'utf8')
      .split('\n')
      .find((line) => line.startsWith('some'));
    const total = /total=(\d+)/.exec(some ?? '');
    return total ? Number(total[1]) : undefined;
  } catch {
    return undefined;
  }
}
