/**
 * The Prettier config (.prettierrc.json) is the one `npm run format:check` applies: it rejects a
 * double-quoted statement without its semicolon and accepts the house form. Prettier runs as the
 * command, in a child process, because its API loads itself as an ES module.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const repository = join(__dirname, '..', '..');

function prettierAccepts(source: string): boolean {
  const prettier = join(repository, 'node_modules', '.bin', 'prettier');
  const stdinPath = join('test', 'architecture', 'snippet.ts');
  const run = spawnSync(prettier, ['--check', '--stdin-filepath', stdinPath], { cwd: repository, input: source, encoding: 'utf8' });
  if (run.status !== 0 && run.status !== 1) throw new Error(`prettier failed (exit ${run.status}): ${run.stderr}`);
  return run.status === 0;
}

describe('the Prettier config (.prettierrc.json)', () => {
  it('rejects a badly formatted snippet', () => {
    expect(prettierAccepts('const greeting = "hello"\n')).toBe(false);
  });

  it('accepts single quotes, semicolons and trailing commas, up to 140 characters a line', () => {
    // 137 characters: Prettier's default width (80) would break this line.
    const longLine = `const parts = [${Array.from({ length: 12 }, (_, i) => `'part-${i}'`).join(', ')}];\n`;
    const expandedObject = "const order = {\n  id: 'o-1',\n  amount: 4200,\n};\n";
    expect(prettierAccepts(`const greeting = 'hello';\n${longLine}${expandedObject}`)).toBe(true);
  });
});
