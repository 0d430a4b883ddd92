/**
 * Without a terminal cli-progress prints a line per render (one on each update it draws, one every two
 * seconds), and its stop renders once more: every command's last line came out twice, its counts unchanged. The
 * bar writes through this, which drops that closing line when it repeats the line before it (a closing
 * line that says more, or the same line two seconds later while work goes on, is still written).
 */
export class LinesOnce {
  private last: string | undefined;
  private pending = '';
  private stopping = false;
  /** All cli-progress uses of its stream without a terminal: `write`, `isTTY` and `columns`. */
  readonly stream: NodeJS.WritableStream;

  constructor(target: NodeJS.WritableStream) {
    const write = (chunk: string | Uint8Array): boolean => {
      this.pending += chunk.toString();
      for (let end = this.pending.indexOf('\n'); end >= 0; end = this.pending.indexOf('\n')) {
        const line = this.pending.slice(0, end);
        this.pending = this.pending.slice(end + 1);
        if (!(this.stopping && line === this.last)) target.write(`${line}\n`);
        this.last = line;
      }
      return true;
    };
    this.stream = { write, isTTY: false, columns: (target as NodeJS.WriteStream).columns } as unknown as NodeJS.WritableStream;
  }

  /** What the bar writes from now on is its closing render. */
  closing(): void {
    this.stopping = true;
  }
}
