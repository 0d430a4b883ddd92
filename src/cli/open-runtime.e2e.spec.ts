/**
 * `idem` (src/cli.ts, in a child process: test/harness/idem-child.ts) without DATABASE_URL
 * on an embedded data directory that holds no Idem database: a mistyped IDEM_DATA_DIR, or a command
 * run from another directory than the service's `./.idem`. It must say so, not create an empty
 * database there and answer from it (an audit verify of nothing printed `"ok": true`, exit 0).
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runIdem } from '../../test/harness/idem-child';

jest.setTimeout(120_000);

describe('idem on an embedded data directory that holds no Idem database', () => {
  let parent: string;
  beforeAll(async () => {
    parent = await mkdtemp(join(tmpdir(), 'idem-cli-nodata-'));
  });
  afterAll(() => rm(parent, { recursive: true, force: true }));

  it.each([
    ['a directory that does not exist', 'missing', ['audit', 'verify']],
    ['an empty directory', '.', ['projections', 'status']],
  ])('refuses %s with exit 2, naming it, and creates nothing there', async (_case, name, args) => {
    const dir = join(parent, name);
    const answer = await runIdem({ IDEM_DATA_DIR: dir, LOG_LEVEL: 'info' }, args);
    expect({ code: answer.code, stdout: answer.stdout }).toEqual({ code: 2, stdout: '' });
    expect(answer.stderr).toContain(`idem: no Idem database in ${dir}`);
    expect(answer.stderr).toContain('DATABASE_URL');
    expect(existsSync(join(dir, 'pg'))).toBe(false);
  });
});
