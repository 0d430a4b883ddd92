/**
 * The real `idem` entry point (src/cli.ts, compiled on load as in projections-cli.int.spec.ts) as an
 * operator and a script meet it: stdout holds the command's output alone, with the log lines on
 * stderr at the default LOG_LEVEL; `--version`; and the advice it gives on a data directory a running
 * instance holds.
 */
import { execFile, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { requestCharge } from '../harness/support-cases';
import { startTestApp, type TestApp } from '../harness/test-app';

jest.setTimeout(120_000);

const ROOT = join(__dirname, '..', '..');
const run = promisify(execFile);

/** Asynchronous: the sandbox provider a command calls runs in this process. */
function idem(env: Record<string, string>, ...args: string[]): Promise<{ stdout: string; stderr: string }> {
  return run(process.execPath, ['-r', join(ROOT, 'bench', 'lib', 'register.js'), join(ROOT, 'src', 'cli.ts'), ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', ...env },
    timeout: 90_000,
  });
}

describe('idem --version', () => {
  it('prints the version of package.json and exits 0, without configuration or database', async () => {
    const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
    await expect(idem({ DATABASE_URL: 'postgres://idem@127.0.0.1:1/nowhere' }, '--version')).resolves.toEqual({
      stdout: `${version}\n`,
      stderr: '',
    });
  });
});

describe('idem recover --order at LOG_LEVEL=info', () => {
  let harness: TestApp;
  beforeAll(async () => {
    harness = await startTestApp('cli_entry_point');
  });
  afterAll(() => harness?.close());

  it('prints only its result line on stdout, and the recovery audit line on stderr', async () => {
    const orderId = await requestCharge(harness);
    const { stdout, stderr } = await idem(
      { DATABASE_URL: harness.runtime.databaseUrl, STRIPE_API_BASE: harness.sandbox.url, LOG_LEVEL: 'info' },
      'recover',
      '--order',
      orderId,
    );
    expect(stdout).toMatch(new RegExp(`^${orderId}  pending → paid  \\([^\\n]*\\)\\n$`));
    expect(stderr).toContain('[Recovery]');
    expect(stderr).toContain(`"audit":"recovery","orderId":"${orderId}"`);
  });
});

describe('idem on an embedded data directory a running instance holds', () => {
  let dir: string;
  let holder: ReturnType<typeof spawn>;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'idem-cli-data-'));
    await mkdir(join(dir, 'pg'));
    // The instance's PostgreSQL as the CLI sees it: a live process named postgres, working in the
    // directory, with a live parent (this one), in postmaster.pid. Not this test process itself: were
    // its parent init, the CLI would stop it as an orphan.
    // `sleep`, not node: Node 24 renames its main thread, so a node process's comm reads `MainThread`.
    const postgres = join(dir, 'postgres');
    await symlink('/bin/sleep', postgres);
    holder = spawn(postgres, ['120'], { stdio: 'ignore', cwd: join(dir, 'pg') });
    await writeFile(join(dir, 'pg', 'postmaster.pid'), `${holder.pid}\n${join(dir, 'pg')}\n`);
  });
  afterAll(async () => {
    holder?.kill();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('tells to use the DATABASE_URL the instance’s banner prints, not another data directory (exit 2)', async () => {
    const failed = await idem({ IDEM_DATA_DIR: dir, LOG_LEVEL: 'info' }, 'projections', 'status').then(
      () => undefined,
      (error: { code: number; stdout: string; stderr: string }) => error,
    );
    expect(failed).toMatchObject({ code: 2, stdout: '' });
    expect(failed?.stderr).toContain(
      `idem: the embedded database in ${dir} is in use by a running Idem instance (PostgreSQL pid ${holder.pid})`,
    );
    expect(failed?.stderr).toContain('"idem beside it:" line (DATABASE_URL=…');
    expect(failed?.stderr).not.toContain('IDEM_DATA_DIR');
  });
});
