/**
 * A small closed-loop HTTP/1.1 load generator: N keep-alive connections, each sending its next request
 * as soon as the previous answer is complete (concurrency N, no pipelining). Every request is built by
 * the caller from its index, so each order id is sent exactly once per phase — autocannon shares one
 * request object between its connections, which makes "2,000 distinct orders" unreliable there.
 *
 * It writes the request bytes directly to a socket and parses only what the benchmark reads (status,
 * content-length, `idempotent-replayed`, `connection`), so the client costs a few µs per request: on a
 * 2-core machine the load generator shares the CPU with the service and must stay small.
 */
import { connect, type Socket } from 'node:net';
import { performance } from 'node:perf_hooks';

export interface RequestSpec {
  method: 'GET' | 'POST';
  path: string;
  /** JSON text; sent with content-type application/json. */
  body?: string;
}

export interface Answer {
  status: number;
  replayed: boolean;
  body: Buffer;
}

export interface LoadOptions {
  url: string;
  concurrency: number;
  /** Extra request headers (e.g. authorization), sent with every request. */
  headers?: Record<string, string>;
  /** Request `i` of the phase; undefined ends the phase for that connection. */
  request(index: number): RequestSpec | undefined;
  /** Run until this many requests were answered (count mode)… */
  total?: number;
  /** …or until this many ms have passed (duration mode: no new request starts after it). */
  durationMs?: number;
  /** Called for every completed answer (status any), with its latency in ms. */
  onAnswer?(index: number, answer: Answer, latencyMs: number): void;
}

export interface LoadResult {
  /** Answers received (any status). */
  answered: number;
  errors: number;
  firstError?: string;
  /** From the first request written to the last answer read. */
  elapsedMs: number;
  /** Latency of every answered request, in ms, in completion order. */
  latenciesMs: Float64Array;
  statusCounts: Record<string, number>;
  replayed: number;
}

const CRLF = '\r\n';

/** One keep-alive connection that carries one request at a time. */
class Connection {
  private socket: Socket | undefined;
  private chunks: Buffer[] = [];
  private buffered = 0;
  private waiting: { resolve: (answer: Answer) => void; reject: (error: Error) => void } | undefined;

  constructor(
    private readonly host: string,
    private readonly port: number,
  ) {}

  send(bytes: Buffer): Promise<Answer> {
    return new Promise((resolve, reject) => {
      this.waiting = { resolve, reject };
      const socket = this.socket ?? this.open();
      socket.write(bytes);
    });
  }

  close(): void {
    this.socket?.destroy();
    this.socket = undefined;
  }

  private open(): Socket {
    const socket = connect({ host: this.host, port: this.port, noDelay: true });
    socket.on('data', (chunk: Buffer) => {
      this.chunks.push(chunk);
      this.buffered += chunk.length;
      this.parse();
    });
    const fail = (error: Error) => {
      if (this.socket === socket) this.socket = undefined;
      this.chunks = [];
      this.buffered = 0;
      const waiting = this.waiting;
      this.waiting = undefined;
      waiting?.reject(error);
    };
    socket.on('error', fail);
    socket.on('close', () => fail(new Error('connection closed by the server')));
    this.socket = socket;
    return socket;
  }

  private parse(): void {
    if (!this.waiting) return;
    const data = this.chunks.length === 1 ? this.chunks[0] : Buffer.concat(this.chunks, this.buffered);
    this.chunks = [data];
    const headEnd = data.indexOf('\r\n\r\n');
    if (headEnd < 0) return;
    const head = data.toString('latin1', 0, headEnd);
    const lines = head.split(CRLF);
    const status = Number(lines[0].slice(9, 12));
    let length = -1;
    let replayed = false;
    let closeAfter = false;
    for (let i = 1; i < lines.length; i++) {
      const line = lines[i];
      const colon = line.indexOf(':');
      const name = line.slice(0, colon).toLowerCase();
      if (name === 'content-length') length = Number(line.slice(colon + 1).trim());
      else if (name === 'idempotent-replayed') replayed = line.slice(colon + 1).trim() === 'true';
      else if (name === 'connection')
        closeAfter =
          line
            .slice(colon + 1)
            .trim()
            .toLowerCase() === 'close';
      else if (name === 'transfer-encoding') {
        this.waiting.reject(new Error('chunked responses are not supported by this load client'));
        this.waiting = undefined;
        this.close();
        return;
      }
    }
    if (length < 0) length = 0;
    const total = headEnd + 4 + length;
    if (data.length < total) return;
    const body = data.subarray(headEnd + 4, total);
    const rest = data.subarray(total);
    this.chunks = rest.length ? [rest] : [];
    this.buffered = rest.length;
    const waiting = this.waiting;
    this.waiting = undefined;
    if (closeAfter) this.close();
    waiting.resolve({ status, replayed, body });
  }
}

export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  const url = new URL(options.url);
  const host = url.hostname;
  const port = Number(url.port || 80);
  const fixedHeaders = Object.entries({ host: url.host, ...options.headers })
    .map(([name, value]) => `${name}: ${value}${CRLF}`)
    .join('');
  const encode = (spec: RequestSpec): Buffer => {
    const body = spec.body === undefined ? undefined : Buffer.from(spec.body);
    const head =
      `${spec.method} ${spec.path} HTTP/1.1${CRLF}${fixedHeaders}` +
      (body ? `content-type: application/json${CRLF}content-length: ${body.length}${CRLF}` : '') +
      CRLF;
    return body ? Buffer.concat([Buffer.from(head, 'latin1'), body]) : Buffer.from(head, 'latin1');
  };

  const latencies = new Float64Array(options.total ?? 1 << 21);
  const statusCounts: Record<string, number> = {};
  let answered = 0;
  let errors = 0;
  let replayed = 0;
  let firstError: string | undefined;
  let next = 0;
  const started = performance.now();
  const deadline = options.durationMs !== undefined ? started + options.durationMs : Number.POSITIVE_INFINITY;
  let lastAnswerAt = started;

  const worker = async () => {
    const connection = new Connection(host, port);
    try {
      for (;;) {
        if (options.total !== undefined && next >= options.total) return;
        if (performance.now() >= deadline) return;
        const index = next++;
        const spec = options.request(index);
        if (!spec) return;
        const bytes = encode(spec);
        const sentAt = performance.now();
        let answer: Answer;
        try {
          answer = await connection.send(bytes);
        } catch (error) {
          errors++;
          firstError ??= (error as Error).message;
          continue;
        }
        const now = performance.now();
        lastAnswerAt = now;
        const latency = now - sentAt;
        if (answered < latencies.length) latencies[answered] = latency;
        answered++;
        statusCounts[answer.status] = (statusCounts[answer.status] ?? 0) + 1;
        if (answer.replayed) replayed++;
        options.onAnswer?.(index, answer, latency);
      }
    } finally {
      connection.close();
    }
  };
  await Promise.all(Array.from({ length: options.concurrency }, worker));
  return {
    answered,
    errors,
    firstError,
    elapsedMs: lastAnswerAt - started,
    latenciesMs: latencies.subarray(0, Math.min(answered, latencies.length)),
    statusCounts,
    replayed,
  };
}
