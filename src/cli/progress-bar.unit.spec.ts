import { PassThrough } from 'node:stream';
import { ProgressBar } from './progress-bar';

function capture(): { stream: PassThrough; text: () => string } {
  const stream = new PassThrough();
  const chunks: Buffer[] = [];
  stream.on('data', (chunk: Buffer) => chunks.push(chunk));
  return { stream, text: () => Buffer.concat(chunks).toString() };
}

describe('ProgressBar (without a terminal)', () => {
  it("starts on the first show, in the command's own format, and prints where it ended when stopped", () => {
    const out = capture();
    const bar = new ProgressBar(out.stream, 'copy {value}/{total} files ({note})');
    bar.show(1, 4, { note: 'first' });
    bar.show(3, 5, { note: 'later' });
    bar.stop();
    expect(out.text()).toContain('copy 3/5 files (later)');
  });

  it('prints nothing when it never started, however often it is stopped', () => {
    const out = capture();
    const bar = new ProgressBar(out.stream, 'copy {value}/{total} files');
    bar.update(2);
    bar.stop();
    bar.stop();
    expect(out.text()).toBe('');
  });

  it('prints its last line once when it stops (rebuild, export, import alike)', () => {
    jest.useFakeTimers();
    try {
      const out = capture();
      const bar = new ProgressBar(out.stream, 'rebuild {value}/{total}');
      bar.start(10, 0);
      bar.update(10);
      // The line printed every two seconds: it shows 10/10 before the bar stops, and stop renders again.
      jest.advanceTimersByTime(2000);
      bar.stop();
      expect(out.text().split('\n').filter(Boolean)).toEqual(['rebuild 0/10', 'rebuild 10/10']);
    } finally {
      jest.useRealTimers();
    }
  });

  it('still prints a closing line that says more than the one before it', () => {
    const out = capture();
    const bar = new ProgressBar(out.stream, 'export {value}/{total}');
    bar.start(10, 0);
    bar.update(4);
    bar.update(10);
    bar.stop();
    const lines = out.text().split('\n').filter(Boolean);
    expect(lines.at(-1)).toBe('export 10/10');
    expect(lines.filter((line) => line === 'export 10/10')).toHaveLength(1);
  });
});
