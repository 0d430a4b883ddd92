/**
 * Writes to a server stream with back-pressure; resolves false once the client has gone away. `buffered`
 * lets that many messages wait in the call's buffer before it waits for the client.
 */
import type { ServerWritableStream } from '@grpc/grpc-js';

export function send<T>(call: ServerWritableStream<unknown, T>, message: T, buffered = 0): Promise<boolean> {
  if (call.cancelled || call.writableEnded || call.destroyed) return Promise.resolve(false);
  if (call.write(message) || call.writableLength < buffered) return Promise.resolve(true);
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
