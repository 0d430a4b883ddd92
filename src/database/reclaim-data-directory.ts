/**
 * What an embedded start finds in its data directory's postmaster.pid before it starts PostgreSQL
 * there (embedded-postgres.ts): nothing, a stale file, an orphaned server to stop, or a server that
 * another Idem instance runs.
 */
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * An Idem process killed with SIGKILL cannot stop its PostgreSQL: the server lives on, orphaned
 * (re-parented to init), holding the data directory. Stop such an orphan; refuse if the server still
 * has a live parent, because then another Idem instance is using this data directory.
 *
 * A pid file whose server died with its machine or container (power loss, `docker kill`) names a pid
 * that may now belong to any process, this one included: only a PostgreSQL working in this directory
 * is signalled; any other process leaves the file stale, and it is removed as for a dead pid.
 */
export async function reclaimDataDirectory(clusterDir: string): Promise<void> {
  const pidFile = join(clusterDir, 'postmaster.pid');
  if (!existsSync(pidFile)) return;
  const pid = Number((await readFile(pidFile, 'utf8')).split('\n')[0]);
  if (!Number.isInteger(pid) || pid <= 0 || !isRunning(pid) || isServerOf(pid, clusterDir) === false) {
    await rm(pidFile, { force: true });
    return;
  }
  if (parentOf(pid) !== 1) {
    throw new DataDirectoryInUse(clusterDir, pid);
  }
  process.kill(pid, 'SIGINT'); // fast shutdown: rolls back open transactions, keeps committed data
  for (let waited = 0; isRunning(pid); waited += 50) {
    if (waited > 30_000) throw new Error(`The orphaned PostgreSQL (pid ${pid}) on ${clusterDir} did not stop within 30 s`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * The data directory's PostgreSQL belongs to a live Idem process. The advice fits a second service
 * started beside it; the CLI gives its own (src/cli/open-runtime.ts): to reach that database, not another.
 */
export class DataDirectoryInUse extends Error {
  constructor(
    readonly clusterDir: string,
    readonly pid: number,
  ) {
    super(
      `The data directory ${clusterDir} is in use by a running PostgreSQL (pid ${pid}) of another Idem instance; set IDEM_DATA_DIR to another directory`,
    );
    this.name = 'DataDirectoryInUse';
  }
}

/**
 * Whether `pid` is a PostgreSQL server working in `clusterDir` (the postmaster changes to its data
 * directory at start), or undefined where /proc cannot tell: not Linux, or a server of another user
 * (root runs it as `postgres`) whose directory this process may not read without CAP_SYS_PTRACE,
 * which containers drop. Undefined is taken to be the server, as before this check.
 */
function isServerOf(pid: number, clusterDir: string): boolean | undefined {
  if (!existsSync('/proc/self/cwd')) return undefined;
  try {
    if (readFileSync(`/proc/${pid}/comm`, 'utf8').trim() !== 'postgres') return false;
    return realpathSync(`/proc/${pid}/cwd`) === realpathSync(clusterDir);
  } catch (error) {
    // Gone meanwhile (ENOENT): not a server at all.
    return (error as NodeJS.ErrnoException).code === 'ENOENT' ? false : undefined;
  }
}

function parentOf(pid: number): number | undefined {
  try {
    // /proc/<pid>/stat: "pid (comm) state ppid …"; comm may contain spaces, so split after the last ')'.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return undefined;
  }
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
