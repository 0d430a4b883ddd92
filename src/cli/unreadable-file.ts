/**
 * A file named on the command line that cannot be read, said in one line (`cannot read /x.ndjson: no
 * such file`) instead of Node's `ENOENT: no such file or directory, open '/x.ndjson'`. Other errors
 * are returned as they are. The CLI prints the line as `idem: …` and exits with 2 (it could not run).
 */
const WHY: Record<string, string> = {
  ENOENT: 'no such file',
  ENOTDIR: 'a part of its path is not a directory',
  EISDIR: 'it is a directory, not a file',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
};

export function unreadableFile(file: string, error: unknown): unknown {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const why = code === undefined ? undefined : WHY[code];
  return why === undefined ? error : new Error(`cannot read ${file}: ${why}`);
}
