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
});
