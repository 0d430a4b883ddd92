import { EventEmitter } from 'node:events';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedWebhook {
  signature: string;
  payload: string;
  status: number;
}

/** A stand-in webhook endpoint for tests: records raw deliveries and answers with scripted statuses. */
export class WebhookReceiver {
  readonly received: ReceivedWebhook[] = [];
  private readonly scriptedStatuses: number[] = [];
  private readonly arrivals = new EventEmitter();

  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  static async start(): Promise<WebhookReceiver> {
    let receiver: WebhookReceiver | undefined;
    const server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        receiver?.accept(String(request.headers['stripe-signature']), Buffer.concat(chunks).toString('utf8'), response);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    receiver = new WebhookReceiver(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`);
    return receiver;
  }

  /** The next deliveries get these statuses, in order; later ones get 200. */
  answerWith(...statuses: number[]): void {
    this.scriptedStatuses.push(...statuses);
  }

  /** Resolves once at least `count` deliveries (of any status) have arrived. */
  waitFor(count: number): Promise<ReceivedWebhook[]> {
    return new Promise((resolve) => {
      const check = () => {
        if (this.received.length < count) return;
        this.arrivals.off('arrival', check);
        resolve([...this.received]);
      };
      this.arrivals.on('arrival', check);
      check();
    });
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private accept(signature: string, payload: string, response: ServerResponse): void {
    const status = this.scriptedStatuses.shift() ?? 200;
    this.received.push({ signature, payload, status });
    response.writeHead(status, { connection: 'close' }).end();
    this.arrivals.emit('arrival');
  }
}
