/**
 * `idem` loads what its command line uses, no more: its start-up is what an operator waits for during an
 * incident (`idem projections status`). It used to load the whole service first — every feature's Nest
 * module and routes, @nestjs/core, Fastify, the Stripe SDK, the EventStoreDB client — about 1,900 modules
 * and 1.5 s of CPU before `idem --help` printed a line. Counted, not timed: the modules the real entry
 * point loaded (test/harness/loaded-modules.ts).
 */
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runIdem, type IdemRun } from '../../test/harness/idem-child';
import { createTestDatabase } from '../../test/harness/test-database';

jest.setTimeout(120_000);

const PRELOAD = join(__dirname, '..', '..', 'test', 'harness', 'loaded-modules.ts');

/** Packages the service needs and no `idem` command does. */
const SERVICE_ONLY = [
  '@nestjs/core',
  '@nestjs/platform-fastify',
  '@nestjs/swagger',
  'fastify',
  'graphile-worker',
  'stripe',
  '@eventstore/db-client',
  '@grpc/grpc-js',
];

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'idem-start-up-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** `idem <args>`, and the modules it loaded (paths relative to the repository, with node_modules/ kept). */
async function loadedBy(env: Record<string, string>, ...args: string[]): Promise<IdemRun & { loaded: string[] }> {
  const file = join(dir, `${args.join('-')}.txt`);
  const run = await runIdem({ ...env, IDEM_TEST_LOADED_MODULES: file }, args, [PRELOAD]);
  const root = join(__dirname, '..', '..') + '/';
  return {
    ...run,
    loaded: readFileSync(file, 'utf8')
      .split('\n')
      .map((path) => path.replace(root, '')),
  };
}

const packagesIn = (loaded: string[], names: string[]) =>
  names.filter((name) => loaded.some((path) => path.includes(`node_modules/${name}/`)));
/** A feature's Nest module, routes, tasks or descriptor for the api and worker. */
const featureInternals = (loaded: string[]) =>
  loaded.filter((path) => /^modules\/[^/]+\/(.+\.(module|controller|task|job)|[^/]+\.feature)\.ts$/.test(path));

describe('idem --help', () => {
  it('loads the command definitions only: no Nest, no TypeORM, no database driver, no feature internals, no read model', async () => {
    const { code, stdout, loaded } = await loadedBy({}, '--help');
    expect(code).toBe(0);
    expect(stdout).toContain('Usage: idem');
    // The accounting sees packages: commander is what help is made of.
    expect(packagesIn(loaded, ['commander'])).toEqual(['commander']);
    expect(packagesIn(loaded, [...SERVICE_ONLY, '@nestjs/common', 'typeorm', 'pg', 'class-validator'])).toEqual([]);
    expect(featureInternals(loaded)).toEqual([]);
    expect(loaded.filter((path) => /^projections\/.+\.(projector|entity)\.ts$/.test(path))).toEqual([]);
  });
});

describe('idem projections status', () => {
  it('loads the read models and the database, and nothing of the service: no Nest application, routes, tasks or provider SDK', async () => {
    const { code, stdout, stderr, loaded } = await loadedBy(
      { DATABASE_URL: await createTestDatabase('cli_start_up') },
      'projections',
      'status',
    );
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    expect(stdout).toMatch(/^PROJECTION\s+KIND/);
    expect(stdout).toMatch(/\norders\s+read model\s+1\s+live/);
    // What the command uses is seen, an ES module's entry (Nest's logger) included.
    expect(packagesIn(loaded, ['typeorm', 'pg', '@nestjs/common'])).toEqual(['typeorm', 'pg', '@nestjs/common']);
    expect(packagesIn(loaded, SERVICE_ONLY)).toEqual([]);
    expect(featureInternals(loaded)).toEqual([]);
  });
});
