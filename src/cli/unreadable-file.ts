/**
 * A file named on the command line that cannot be read or written, said in one line (`cannot read
 * /x.ndjson: no such file`, `cannot write /no/dir/x.ndjson: its directory does not exist`) instead of
 * Node's `ENOENT: no such file or directory, open '/x.ndjson'`. Other errors are returned as they are.
 * The CLI prints the line as `idem: …` and exits with 2 (it could not run).
 */
const WHY: Record<string, string> = {
  ENOENT: 'no such file',
  ENOTDIR: 'a part of its path is not a directory',
  EISDIR: 'it is a directory, not a file',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
};

/** Writing, a missing path is its directory's (the file itself is created), and a full or read-only disk says so. */
const WHY_NOT_WRITTEN: Record<string, string> = {
  ...WHY,
  ENOENT: 'its directory does not exist',
  EROFS: 'the file system is read-only',
  ENOSPC: 'no space left on the device',
};

export function unreadableFile(file: string, error: unknown): unknown {
  return inOneLine('read', WHY, file, error);
}

export function unwritableFile(file: string, error: unknown): unknown {
  return inOneLine('write', WHY_NOT_WRITTEN, file, error);
}

function inOneLine(verb: string, reasons: Record<string, string>, file: string, error: unknown): unknown {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const why = code === undefined ? undefined : reasons[code];
  return why === undefined ? error : new Error(`cannot ${verb} ${file}: ${why}`);
}
