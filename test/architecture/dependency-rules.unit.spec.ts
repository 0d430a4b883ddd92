/**
 * Every rule of .dependency-cruiser.cjs reports a deliberate violation, and a tree that keeps the rules
 * (including each exemption the config grants) cruises clean. The trees are small copies of the
 * repository's shape, written to a temp folder and cruised by the real `depcruise` command and config
 * (dependency-cruiser is an ES module, which jest's module registry cannot load in-process).
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import type { ICruiseResult } from 'dependency-cruiser';

const repository = join(__dirname, '..', '..');

type Tree = Record<string, string>;

/** Files that keep every rule, among them each import a rule allows on purpose. */
const CLEAN: Tree = {
  'src/main.ts':
    "import '../modules/payments/index';\nimport '../modules/sandbox/index';\nimport '../projections/orders/orders.projector';\n",
  'src/features.ts': "import '../modules/contacts/index';\n",
  'src/kernel/port.ts': 'export const port = 1;\n',
  'src/kernel/supervisor.ts': "import { group } from './group';\nexport const supervisor = group;\n",
  'src/kernel/group.ts':
    "import type { supervisor } from './supervisor';\nexport const group = 1;\nexport type Group = typeof supervisor;\n",
  'src/kernel/port.unit.spec.ts': "import '../../projections/orders/orders.projector';\n",
  'modules/payments/index.ts': "export { charge } from './charge/charge';\n",
  'modules/payments/order.events.ts': 'export const ORDER_EVENTS = [];\n',
  'modules/payments/order.view.ts': 'export interface OrderView { id: string }\n',
  'modules/payments/charge/charge.ts': "import { port } from '../../../src/kernel/port';\nexport const charge = port;\n",
  'modules/payments/charge/charge.payload.ts': "export const CHARGE_TASK = 'charge';\n",
  'modules/payments/charge/charge.int.spec.ts': "import '../../sandbox/index';\n",
  'modules/contacts/index.ts': 'export const contacts = 1;\n',
  'modules/support/resolve.ts': "import '../payments/index';\nimport '../payments/order.events';\n",
  'modules/sandbox/index.ts': "export { server } from './server';\n",
  'modules/sandbox/server.ts': 'export const server = 1;\n',
  'projections/orders/orders.projector.ts':
    "import '../../modules/payments/order.events';\nimport '../../modules/payments/charge/charge.payload';\n" +
    "import type { OrderView } from '../../modules/payments/order.view';\nexport type Row = OrderView;\n",
  'test/e2e/flow.ts': "import '../../modules/sandbox/index';\nimport '../../modules/payments/charge/charge';\n",
};

/** One violating import per rule: [rule, importing file, imported file]. */
const VIOLATIONS: Array<[string, string, string]> = [
  ['kernel-imports-no-feature', 'src/kernel/wiring.ts', 'modules/payments/index.ts'],
  ['kernel-imports-no-feature', 'src/kernel/read-models.ts', 'projections/orders/orders.projector.ts'],
  ['features-import-only-public-surfaces', 'modules/support/peek.ts', 'modules/payments/charge/charge.ts'],
  ['projections-read-only-feature-contracts', 'projections/orders/orders.queries.ts', 'modules/payments/charge/charge.ts'],
  ['product-never-imports-sandbox', 'modules/payments/charge/provider.ts', 'modules/sandbox/index.ts'],
  ['sandbox-imports-nothing-of-idem', 'modules/sandbox/clock.ts', 'src/kernel/port.ts'],
  ['sandbox-imports-nothing-of-idem', 'modules/sandbox/orders.ts', 'modules/payments/order.events.ts'],
  ['no-circular', 'src/kernel/ring-a.ts', 'src/kernel/ring-b.ts'],
];
/** The import that closes the ring: depcruise reports a cycle once, from the first module on it. */
const RING_CLOSER: Tree = { 'src/kernel/ring-b.ts': "import './ring-a';\n" };

/** `import '<imported, relative to importer>';` */
function importOf(importer: string, imported: string): string {
  const target = relative(dirname(importer), imported).replace(/\.ts$/, '');
  return `import '${target.startsWith('.') ? target : `./${target}`}';\n`;
}

function violationsIn(tree: Tree): string[] {
  const root = mkdtempSync(join(tmpdir(), 'idem-depcruise-'));
  try {
    for (const [path, source] of Object.entries(tree)) {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), source);
    }
    const depcruise = join(repository, 'node_modules', '.bin', 'depcruise');
    const config = join(repository, '.dependency-cruiser.cjs');
    const run = spawnSync(depcruise, ['src', 'modules', 'projections', 'test', '--config', config, '--output-type', 'json'], {
      cwd: root,
      encoding: 'utf8',
    });
    if (!run.stdout) throw new Error(`depcruise wrote nothing (exit ${run.status}): ${run.stderr}`);
    const { summary } = JSON.parse(run.stdout) as ICruiseResult;
    return summary.violations.map((violation) => `${violation.rule.name}: ${violation.from} → ${violation.to}`).sort();
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

describe('the dependency rules (.dependency-cruiser.cjs)', () => {
  it('pass a tree that keeps them: composition roots, public surfaces, spec files, type-only cycles', () => {
    expect(violationsIn(CLEAN)).toEqual([]);
  });

  it('report each deliberate violation under its own rule, and nothing else', () => {
    const violating = Object.fromEntries(VIOLATIONS.map(([, importer, imported]) => [importer, importOf(importer, imported)]));
    const expected = VIOLATIONS.map(([rule, importer, imported]) => `${rule}: ${importer} → ${imported}`).sort();
    expect(violationsIn({ ...CLEAN, ...violating, ...RING_CLOSER })).toEqual(expected);
  });
});
