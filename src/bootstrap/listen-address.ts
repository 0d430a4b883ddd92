/**
 * The api's address (HOST:PORT), checked before anything else starts. A taken port used to show only
 * when the api began to listen — after the embedded PostgreSQL, the migrations and the in-process
 * worker (already taking jobs) had started — as Node's EADDRINUSE stack trace. The check binds the
 * address for a moment and lets it go; another program can still take it before the api listens, and
 * that listen error is then reported in the same words ({@link addressInUseOr}).
 */
import { createServer } from 'node:net';

export interface ListenAddress {
  host: string;
  port: number;
}

/** Another process listens on the api's address: the operator chooses another one, or stops that process. */
export class AddressInUse extends Error {
  constructor(readonly address: ListenAddress) {
    super(
      `${address.host}:${address.port} is already in use (another Idem, or another program, listens there): ` +
        `stop that process or set PORT (and HOST) to a free address`,
    );
    this.name = 'AddressInUse';
  }
}

/** Resolves when the address can be bound now; a port of 0 (any free one) always can. */
export async function ensureAddressFree(address: ListenAddress): Promise<void> {
  if (address.port === 0) return;
  const probe = createServer();
  await new Promise<void>((resolve, reject) => {
    probe.once('error', (error) => reject(addressInUseOr(error, address)));
    probe.listen({ port: address.port, host: address.host, exclusive: true }, () => probe.close(() => resolve()));
  });
}

/** The listen error as {@link AddressInUse} when it is one, else unchanged. */
export function addressInUseOr(error: unknown, address: ListenAddress): unknown {
  return (error as { code?: unknown } | null)?.code === 'EADDRINUSE' ? new AddressInUse(address) : error;
}
