/**
 * When a call's `ServerCallContext.CancellationToken` fires, the token the server hands down to its writer
 * (append-to-log.ts). ASP.NET Core gRPC fires it when the client cancels or goes away, and when the call's deadline
 * passes: "On the server, the executing HTTP request is aborted and ServerCallContext.CancellationToken is raised"
 * (https://learn.microsoft.com/aspnet/core/grpc/deadlines-cancellation); not when the server has answered.
 * grpc-js emits 'cancelled' for all of these (it answers a passed deadline by itself), but also after every status
 * the handler sends, so only a 'cancelled' before the handler's answer counts.
 */
export function onTokenFired(
  call: { on(event: 'cancelled', listener: () => void): unknown },
  answered: () => boolean,
  fired: () => void,
): void {
  call.on('cancelled', () => {
    if (!answered()) fired();
  });
}
