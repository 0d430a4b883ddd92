/**
 * CPU seconds used so far by a PostgreSQL server (the postmaster and all its children: backends,
 * WAL writer, checkpointer, …), read from /proc. Linux only; undefined elsewhere. Backends that
 * exit take their CPU time with them, so only compare readings taken while the same connections live.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { execFileSync } from 'node:child_process';

let ticksPerSecond: number | undefined;

function clockTicks(): number {
  if (ticksPerSecond === undefined) {
    try {
      ticksPerSecond = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
    } catch {
      ticksPerSecond = 100;
    }
  }
  return ticksPerSecond;
}

/** [ppid, utime + stime in ticks] of one process, from /proc/<pid>/stat. */
function stat(pid: number): [number, number] | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name is in parentheses and may contain spaces: split after the last ')'.
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return [Number(fields[1]), Number(fields[11]) + Number(fields[12])];
  } catch {
    return undefined;
  }
}

export function serverCpuSeconds(postmasterPid: number | undefined): number | undefined {
  if (!postmasterPid || process.platform !== 'linux') return undefined;
  const own = stat(postmasterPid);
  if (!own) return undefined;
  let ticks = own[1];
  for (const entry of readdirSync('/proc')) {
    const pid = Number(entry);
    if (!Number.isInteger(pid) || pid === postmasterPid) continue;
    const child = stat(pid);
    if (child && child[0] === postmasterPid) ticks += child[1];
  }
  return ticks / clockTicks();
}

/** The postmaster's pid from its data directory (first line of postmaster.pid). */
export function postmasterPid(clusterDir: string): number | undefined {
  try {
    const pid = Number(readFileSync(`${clusterDir}/postmaster.pid`, 'utf8').split('\n')[0]);
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}
