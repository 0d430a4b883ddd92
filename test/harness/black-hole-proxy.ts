/**
 * For tests: a TCP proxy in front of a PostgreSQL that can be told to black-hole — keep accepting
 * connections and never forward a byte, either way — and to forward again. Bytes that arrive while it
 * black-holes are dropped, as a partition drops packets, and a connection accepted then is never
 * forwarded. It can also lose the answers of the connections open at one moment only, as a dropped
 * flow in a NAT would, while new connections go through. The shared test server itself is never
 * paused: other files use it.
 */
import { connect, createServer, type Socket } from 'node:net';

export interface BlackHoleProxy {
  /** `databaseUrl` with the proxy's address instead of the server's. */
  url: string;
  blackHole(): void;
  /** From now on, drops what the server sends on every connection already open. */
  loseAnswers(): void;
  /** Forwards every byte again, on every connection. */
  forward(): void;
  close(): Promise<void>;
}

export async function startBlackHoleProxy(databaseUrl: string): Promise<BlackHoleProxy> {
  const target = new URL(databaseUrl);
  let holding = false;
  const sockets = new Set<Socket>();
  const links = new Set<{ lossy: boolean }>();
  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    return socket;
  };
  const server = createServer((client) => {
    track(client);
    const link = { lossy: false };
    links.add(link);
    client.on('close', () => links.delete(link));
    const upstream = holding ? undefined : track(connect(Number(target.port || 5432), target.hostname));
    upstream?.on('data', (chunk: Buffer) => void (holding || link.lossy || client.write(chunk)));
    upstream?.on('close', () => client.destroy());
    client.on('data', (chunk: Buffer) => void (holding || upstream?.write(chunk)));
    client.on('close', () => upstream?.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = new URL(databaseUrl);
  url.hostname = '127.0.0.1';
  url.port = String((server.address() as { port: number }).port);
  return {
    url: url.toString(),
    blackHole: () => void (holding = true),
    forward: () => {
      holding = false;
      links.forEach((link) => (link.lossy = false));
    },
    loseAnswers: () => links.forEach((link) => (link.lossy = true)),
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
