/**
 * What `idem projections verify` and `rebuild` print, counted right for none, one and many: they used to
 * say "1 rows stored", "1 difference(s)" and "1 event(s) applied during the switch".
 */
import { PassThrough } from 'node:stream';
import type { RebuildProgress } from '../../subscriptions/read-models/rebuild';
import { RebuildProgressBar } from './rebuild-progress';
import { switchedLine } from './rebuild';
import { verifyLine } from './verify';

const difference = (key: string) => ({ kind: 'missing' as const, key });
const report = (rowsStored: number, differences: number) => ({
  name: 'orders',
  version: 2,
  rowsStored,
  rowsExpected: rowsStored,
  checkpoint: undefined,
  differences: Array.from({ length: differences }, (_, i) => difference(`order_id=o-${i}`)),
});

describe('idem projections verify, a read model’s line', () => {
  it.each([
    [0, 0, 'orders@2: 0 rows stored, 0 expected from the log (checkpoint: start): no differences'],
    [1, 1, 'orders@2: 1 row stored, 1 expected from the log (checkpoint: start): 1 difference'],
    [2, 3, 'orders@2: 2 rows stored, 2 expected from the log (checkpoint: start): 3 differences'],
  ])('with %i rows and %i differences reads right', (rows, differences, line) => {
    expect(verifyLine(report(rows, differences))).toBe(line);
  });
});

describe('idem projections rebuild, the switch line', () => {
  it.each([
    [0, '0 events'],
    [1, '1 event'],
    [5, '5 events'],
  ])('counts %i events applied during the switch as "%s"', (caughtUpEvents, words) => {
    expect(switchedLine('orders', { from: 1, to: 2, caughtUpEvents })).toBe(
      `orders: readers switched from version 1 to 2 (${words} applied during the switch); version 1 is kept until drop-old`,
    );
  });
});

describe('idem projections rebuild, the progress bar (without a terminal)', () => {
  const run = (total: number, applied: number) => {
    const stream = new PassThrough();
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    const bar = new RebuildProgressBar(stream);
    bar.start(total);
    const progress: RebuildProgress = { eventsRead: applied, applied: { orders: applied } };
    bar.update(progress);
    bar.stop();
    return Buffer.concat(chunks).toString().trimEnd().split('\n').at(-1)!;
  };

  it('says "event" against a total of one and "events" against more', () => {
    expect(run(1, 1)).toContain('| 1/1 event applied |');
    expect(run(3, 2)).toContain('| 2/3 events applied |');
  });

  it('shows an empty history as done: nothing of nothing applied, full, with no time left', () => {
    expect(run(0, 0)).toBe('rebuild [========================================] 100% | 0/0 events applied | 0 events/s read | ETA 0s');
  });

  it('gives the time left from the read rate, and says when it cannot tell', () => {
    expect(run(600, 0)).toMatch(/ 0% \| 0\/600 events applied \| 0 events\/s read \| ETA unknown$/);
    expect(run(600, 300)).toMatch(/ 50% \| 300\/600 events applied \| \d+ events\/s read \| ETA \d+s$/);
  });
});
