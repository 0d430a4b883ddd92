/** Writes to a server stream with back-pressure; resolves false once the client has gone away. */
import type { ServerWritableStream } from '@grpc/grpc-js';

export function send<T>(call: ServerWritableStream<unknown, T>, message: T): Promise<boolean> {
  if (call.cancelled || call.writableEnded || call.destroyed) return Promise.resolve(false);
  if (call.write(message)) return Promise.resolve(true);
  return new Promise((resolve) => {
    const settle = (open: boolean) => () => {
      call.off('drain', drained);
      call.off('cancelled', gone);
      call.off('close', gone);
      resolve(open);
    };
    const drained = settle(true);
    const gone = settle(false);
    call.once('drain', drained);
    call.once('cancelled', gone);
    call.once('close', gone);
  });
}
