/**
 * `idem audit verify-file` on a path it cannot read says so in one line and exits with 2 (it could not
 * run), as a usage error does, instead of printing Node's `ENOENT: no such file or directory, open …`.
 * It opens no database for it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { runCli } from '../../src/cli';
import { EXIT_ERROR, type CliContext } from '../../src/cli/cli-context';
import { loadConfig } from '../../src/config/config';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'idem-verify-file-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A stream that keeps what is written to it. */
function collected() {
  const stream = new PassThrough();
  let text = '';
  stream.on('data', (chunk: Buffer) => (text += chunk.toString()));
  return { stream, text: () => text };
}

async function idem(...args: string[]) {
  const [stdout, stderr] = [collected(), collected()];
  const config = loadConfig({});
  const context: CliContext = {
    readModels: [],
    reactors: [],
    config: () => config,
    runtime: () => Promise.reject(new Error('the database must not be opened')),
    stdout: stdout.stream,
    stderr: stderr.stream,
    exitCode: 0,
  };
  const code = await runCli(args, context);
  return { code, out: stdout.text(), err: stderr.text() };
}

describe('idem audit verify-file', () => {
  it('names a file that does not exist in one line, exit code 2, and prints no report', async () => {
    const missing = join(dir, 'nonexistent.ndjson');
    expect(await idem('audit', 'verify-file', missing)).toEqual({
      code: EXIT_ERROR,
      out: '',
      err: `idem: cannot read ${missing}: no such file\n`,
    });
  });

  it('says that a directory is no file', async () => {
    expect(await idem('audit', 'verify-file', dir)).toEqual({
      code: EXIT_ERROR,
      out: '',
      err: `idem: cannot read ${dir}: it is a directory, not a file\n`,
    });
  });
});
