/**
 * When a call's `ServerCallContext.CancellationToken` fires, the token the server hands down to its writer
 * (append-to-log.ts). ASP.NET Core gRPC fires it when the client cancels or goes away, and when the call's deadline
 * passes: "On the server, the executing HTTP request is aborted and ServerCallContext.CancellationToken is raised"
 * (https://learn.microsoft.com/aspnet/core/grpc/deadlines-cancellation); not when the server has answered.
 * grpc-js emits 'cancelled' for all of these (it answers a passed deadline by itself), but also after every status
 * the handler sends, so only a 'cancelled' before the handler's answer counts.
 */
import type { sendUnaryData } from '@grpc/grpc-js';
import type { DroppableCall, EmulatorContext } from './context';
import { rpcErrors } from './rpc-errors';

export function onTokenFired(
  call: { on(event: 'cancelled', listener: () => void): unknown },
  answered: () => boolean,
  fired: () => void,
): void {
  call.on('cancelled', () => {
    if (!answered()) fired();
  });
}

/**
 * A write call's one answer: by its write, or by `stop()` cutting the connection first (the write, if decided,
 * may still land). `cut()` says the call was cut by `stop()`, cancelled by the client or is past its deadline
 * (its token fired): the write, if still queued, is then skipped (append-to-log.ts, delete-from-log.ts).
 */
export function writeCallOf<R>(
  ctx: EmulatorContext,
  call: { on(event: 'cancelled', listener: () => void): unknown },
  callback: sendUnaryData<R>,
): { reply: (error: Parameters<sendUnaryData<R>>[0], value?: R) => void; cut: () => boolean } {
  let answered = false;
  let cut = false;
  const reply = (error: Parameters<sendUnaryData<R>>[0], value?: R) => {
    if (answered) return;
    answered = true;
    ctx.writeCalls.delete(droppable);
    callback(error, value);
  };
  const droppable: DroppableCall = {
    drop: () => {
      cut = true;
      reply(rpcErrors.connectionLost());
    },
  };
  ctx.writeCalls.add(droppable);
  onTokenFired(
    call,
    () => answered,
    () => {
      cut = true;
      ctx.stats.callsCancelled++;
    },
  );
  return { reply, cut: () => cut };
}
