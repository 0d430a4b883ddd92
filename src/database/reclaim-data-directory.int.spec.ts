/**
 * The pid in a data directory's postmaster.pid, checked against real processes: only a PostgreSQL
 * server working in that directory is stopped or refused for; any other process named by a stale file
 * (after a reboot or a killed container, pids start over) is left alone.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataDirectoryInUse, reclaimDataDirectory } from './reclaim-data-directory';

/**
 * The stand-ins idle in `sleep`, not node: Node 24 renames its main thread, so /proc/<pid>/comm of a node
 * process reads `MainThread` once it has started, whatever name it was started under.
 */
const SLEEP = '/bin/sleep';
const IDLE = ['60'];

let root: string;
let clusterDir: string;
/** A stand-in for the server: `sleep` under the name `postgres` (what /proc/<pid>/comm shows). */
let fakePostgres: string;
const started: number[] = [];

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'idem-reclaim-'));
  clusterDir = join(root, 'pg');
  mkdirSync(clusterDir);
  fakePostgres = join(root, 'postgres');
  symlinkSync(SLEEP, fakePostgres);
});
afterEach(() => {
  for (const pid of started.splice(0)) if (isRunning(pid)) process.kill(pid, 'SIGKILL');
  rmSync(root, { recursive: true, force: true });
});

const isRunning = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};
const pidFile = () => join(clusterDir, 'postmaster.pid');
const writePidFile = (pid: number) => writeFileSync(pidFile(), `${pid}\n${clusterDir}\n`);

/** A process whose parent exits at once, so that init adopts it: what a SIGKILLed Idem leaves. */
function orphan(command: string, cwd: string): number {
  const shell = spawnSync('sh', ['-c', '"$@" >/dev/null 2>&1 & echo $!', 'sh', command, ...IDLE], { cwd, encoding: 'utf8' });
  const pid = Number(shell.stdout.trim());
  started.push(pid);
  return pid;
}
function child(command: string, cwd: string): ChildProcess {
  const process = spawn(command, IDLE, { cwd, stdio: 'ignore' });
  started.push(process.pid!);
  return process;
}

describe('reclaimDataDirectory', () => {
  describe('when postmaster.pid names a process that is not a PostgreSQL of this directory', () => {
    it('leaves an orphan alone and removes the stale file', async () => {
      const other = orphan(SLEEP, clusterDir);
      writePidFile(other);
      await reclaimDataDirectory(clusterDir);
      expect(isRunning(other)).toBe(true);
      expect(existsSync(pidFile())).toBe(false);
    });

    it('leaves a process with a live parent alone, and removes the stale file instead of refusing the directory', async () => {
      const other = child(SLEEP, clusterDir);
      writePidFile(other.pid!);
      await reclaimDataDirectory(clusterDir);
      expect(isRunning(other.pid!)).toBe(true);
      expect(existsSync(pidFile())).toBe(false);
    });

    it('leaves a PostgreSQL of another directory alone', async () => {
      const other = orphan(fakePostgres, root);
      writePidFile(other);
      await reclaimDataDirectory(clusterDir);
      expect(isRunning(other)).toBe(true);
      expect(existsSync(pidFile())).toBe(false);
    });
  });

  describe('when postmaster.pid names a PostgreSQL working in this directory', () => {
    it('refuses the directory while the server has a live parent (another Idem instance)', async () => {
      const server = child(fakePostgres, clusterDir);
      writePidFile(server.pid!);
      await expect(reclaimDataDirectory(clusterDir)).rejects.toThrow(DataDirectoryInUse);
      expect(isRunning(server.pid!)).toBe(true);
      expect(existsSync(pidFile())).toBe(true);
    });
  });
});
