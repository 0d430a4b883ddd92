/**
 * The real ESLint config (eslint.config.mjs, type-aware) catches a promise nobody waits for. The snippet
 * is linted under the name of lint-probe/probe.ts, whose one-file TypeScript project keeps this fast;
 * the command runs in a child process because ESLint loads its config as an ES module. Rules that
 * cover product code only are probed with a real product file's text, changed in memory.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const repository = join(__dirname, '..', '..');

function problemsReportedFor(snippet: string, probe = join('test', 'architecture', 'lint-probe', 'probe.ts')): string[] {
  const eslint = join(repository, 'node_modules', '.bin', 'eslint');
  const run = spawnSync(eslint, ['--stdin', '--stdin-filename', probe, '--format', 'json'], {
    cwd: repository,
    input: snippet,
    encoding: 'utf8',
  });
  if (!run.stdout) throw new Error(`eslint wrote nothing (exit ${run.status}): ${run.stderr}`);
  const [result] = JSON.parse(run.stdout) as Array<{ messages: Array<{ ruleId: string | null; line: number; message: string }> }>;
  return result.messages.map((message) => `${message.line}: ${message.ruleId ?? message.message}`);
}

describe('the ESLint config (eslint.config.mjs)', () => {
  it('flags the floating promise, not the awaited one or the one marked with void', () => {
    const snippet = [
      'export async function save(): Promise<void> {}',
      'export async function handle(): Promise<void> {',
      '  await save();',
      '  void save();',
      '  save();',
      '}',
      '',
    ].join('\n');
    expect(problemsReportedFor(snippet)).toEqual(['5: @typescript-eslint/no-floating-promises']);
  });
});

describe('the one way to append', () => {
  // A real file of the project, linted with its text changed in memory: the rule covers product code only.
  const file = join('modules', 'contacts', 'pull-run', 'start-run.ts');
  const source = readFileSync(join(repository, file), 'utf8');
  const linked = 'await appendLinked(store, stream, [toAppend], expected);';

  // The file as it is passes `npm run lint`; one run here (type-aware, ~20 s) checks the changed text.
  it('flags an append made straight to the store', () => {
    expect(source).toContain(linked);
    const straight = source.replace(linked, 'await store.append(stream, [toAppend], expected);');
    const line = straight.split('\n').findIndex((text) => text.includes('store.append(')) + 1;
    const problems = problemsReportedFor(straight, file);
    expect(problems.filter((problem) => problem.endsWith('no-restricted-syntax'))).toEqual([`${line}: no-restricted-syntax`]);
  });
});
