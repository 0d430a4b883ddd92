import { PassThrough } from 'node:stream';
import { initialImportRunState, type ImportRunState } from '../import-run.state';
import { toRunView } from '../import-run.view';
import { importLabel, pullLabel, resumeLabel, RunProgressBar, runListLine, runStatusLine, watchLabel } from './run-progress';

const run = (overrides: Partial<ImportRunState>): ImportRunState => ({
  ...initialImportRunState(),
  exists: true,
  runId: 'run.1',
  source: 'crm',
  ...overrides,
});

/** The last line a bar printed (without a terminal it prints its line as it starts and when stopped). */
function barText(label: string, unit: 'bytes' | 'pages', value: number, total: number, state: ImportRunState): string {
  const stream = new PassThrough();
  let text = '';
  stream.on('data', (chunk: Buffer) => (text += chunk.toString()));
  const bar = new RunProgressBar(stream, label, unit);
  bar.update(value, total, state);
  bar.stop();
  return text.trim().split('\n').at(-1)!;
}

describe('runStatusLine', () => {
  it('says a finished run with no records plainly, without "none yet"', () => {
    expect(runStatusLine(run({ status: 'completed', pages: 1 }))).toBe('run.1: completed: 0 records');
  });

  it('gives the counts of a finished run', () => {
    const completed = run({ status: 'completed', processed: 3, counts: { imported: 2, rejected: 1 } });
    expect(runStatusLine(completed)).toBe('run.1: completed: 3 records (imported 2, rejected 1)');
    expect(runStatusLine(run({ status: 'completed', processed: 1, counts: { updated: 1 } }))).toBe(
      'run.1: completed: 1 record (updated 1)',
    );
  });

  it('adds why a run stopped', () => {
    const stopped = run({ status: 'needs_review', processed: 200, counts: { imported: 200 }, reason: 'page failed 5 times' });
    expect(runStatusLine(stopped)).toBe('run.1: needs_review: 200 records (imported 200) — page failed 5 times');
    expect(runStatusLine(run({ status: 'failed', reason: 'CRM unreachable' }))).toBe('run.1: failed: 0 records — CRM unreachable');
  });

  it('speaks of a live run as one that goes on', () => {
    expect(runStatusLine(run({ status: 'running' }))).toBe('run.1: running: no records yet');
    expect(runStatusLine(run({ status: 'running', processed: 2, counts: { imported: 2 } }))).toBe(
      'run.1: running: 2 records so far (imported 2)',
    );
  });
});

describe('runListLine', () => {
  it('counts one record as one record, and several as records', () => {
    const one = toRunView(run({ kind: 'file', status: 'completed', processed: 1, counts: { imported: 1 } }));
    expect(runListLine(one)).toBe('run.1  file  completed  1 record  crm');
    expect(runListLine({ ...one, processed: 0 })).toBe('run.1  file  completed  0 records  crm');
  });

  it('names the CRM a pull run is tied to, and why a run stopped', () => {
    const stopped = run({ status: 'needs_review', processed: 2, reason: 'page failed 5 times' });
    const view = { ...toRunView(stopped), sourceIdentity: 'http://127.0.0.1:3100' };
    expect(runListLine(view)).toBe('run.1  pull  needs_review  2 records  crm at http://127.0.0.1:3100  page failed 5 times');
  });
});

describe('RunProgressBar', () => {
  const pulled = run({ pages: 2, processed: 400, counts: { imported: 390, unchanged: 10 } });

  it('names a pull, a resume and a watch for what they are, with pages and records and no percentage', () => {
    expect(barText(pullLabel(pulled), 'pages', 400, 400, pulled)).toBe(
      'pull run.1 from crm | 2 pages | 400 records: imported 390, unchanged 10',
    );
    expect(barText(resumeLabel(pulled), 'pages', 400, 400, pulled)).toBe(
      'resume of run.1 (pull from crm) | 2 pages | 400 records: imported 390, unchanged 10',
    );
    expect(barText(watchLabel(pulled), 'pages', 400, 400, pulled)).toMatch(/^watch run\.1 \(pull from crm\) \| 2 pages/);
  });

  it('names a file import by its file, with the bytes read', () => {
    const file = run({ kind: 'file', processed: 1, counts: { imported: 1 } });
    expect(barText(importLabel('exports/{all}.ndjson'), 'bytes', 50, 200, file)).toMatch(
      /^import exports\/\{all\}\.ndjson \[.*\] 25% \| 50\/200 bytes \| 1 record: imported 1$/,
    );
  });

  it('shows an empty file as read whole: 0 of 0 bytes, full', () => {
    const file = run({ kind: 'file' });
    expect(barText(importLabel('empty.csv'), 'bytes', 0, 0, file)).toMatch(
      /^import empty\.csv \[=+\] 100% \| 0\/0 bytes \| 0 records: none yet$/,
    );
  });

  it('says "none yet" while a run has processed nothing', () => {
    expect(barText(pullLabel(run({})), 'pages', 0, 0, run({}))).toBe('pull run.1 from crm | 0 pages | 0 records: none yet');
  });
});
