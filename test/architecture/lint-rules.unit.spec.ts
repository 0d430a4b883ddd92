/**
 * The real ESLint config (eslint.config.mjs, type-aware) catches a promise nobody waits for. The snippet
 * is linted under the name of lint-probe/probe.ts, whose one-file TypeScript project keeps this fast;
 * the command runs in a child process because ESLint loads its config as an ES module.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const repository = join(__dirname, '..', '..');

function problemsReportedFor(snippet: string): string[] {
  const eslint = join(repository, 'node_modules', '.bin', 'eslint');
  const probe = join('test', 'architecture', 'lint-probe', 'probe.ts');
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
