import { PassThrough } from 'node:stream';
import { initialImportRunState, type ImportRunState } from '../import-run.state';
import { RunProgressBar } from './run-progress';

function shown(unit: 'bytes' | 'records', update: (bar: RunProgressBar) => void): string {
  const stream = new PassThrough();
  let text = '';
  stream.on('data', (chunk: Buffer) => (text += chunk.toString()));
  const bar = new RunProgressBar(stream, unit);
  update(bar);
  bar.stop();
  return text;
}

describe('RunProgressBar', () => {
  const run: ImportRunState = { ...initialImportRunState(), runId: 'r', processed: 4004, pages: 4, counts: { imported: 4004 } };

  it('shows a pull run mid-way as pages and records so far, never as 100 % of what was fetched', () => {
    const text = shown('records', (bar) => bar.update(run));
    expect(text).toContain('import | 4 pages, 4004 records so far: imported 4004');
    expect(text).not.toMatch(/%/);
  });

  it('shows a file import as the share of its bytes read', () => {
    expect(shown('bytes', (bar) => bar.update(run, 250, 1000))).toContain('25% | 250/1000 bytes | 4004 records: imported 4004');
  });
});
