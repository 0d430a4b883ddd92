/**
 * `idem` (src/cli.ts, compiled on load as in test/e2e/cli-entry-point.e2e.spec.ts) without DATABASE_URL
 * on an embedded data directory that holds no Idem database: a mistyped IDEM_DATA_DIR, or a command
 * run from another directory than the service's `./.idem`. It must say so, not create an empty
 * database there and answer from it (an audit verify of nothing printed `"ok": true`, exit 0).
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

jest.setTimeout(120_000);

const ROOT = join(__dirname, '..', '..');
const run = promisify(execFile);

function idem(env: Record<string, string>, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return run(process.execPath, ['-r', join(ROOT, 'bench', 'lib', 'register.js'), join(ROOT, 'src', 'cli.ts'), ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', ...env },
    timeout: 90_000,
  }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, stdout: error.stdout, stderr: error.stderr }),
  );
}

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
    const answer = await idem({ IDEM_DATA_DIR: dir, LOG_LEVEL: 'info' }, ...args);
    expect({ code: answer.code, stdout: answer.stdout }).toEqual({ code: 2, stdout: '' });
    expect(answer.stderr).toContain(`idem: no Idem database in ${dir}`);
    expect(answer.stderr).toContain('DATABASE_URL');
    expect(existsSync(join(dir, 'pg'))).toBe(false);
  });
});
