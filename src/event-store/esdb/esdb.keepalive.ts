/**
 * A subscription notices a server that stopped answering without closing its connections (a paused
 * process, a frozen VM) only through the client's gRPC keep-alive: a live subscription with nothing to
 * deliver looks exactly like one whose server has stopped. What 6.2.1 and its gRPC runtime do:
 *
 * - `keepAliveInterval` and `keepAliveTimeout` default to 10 000 ms each (@eventstore/db-client 6.2.1
 *   dist/Client/index.js, the `Client` constructor) and become the channel's `grpc.keepalive_time_ms` and
 *   `grpc.keepalive_timeout_ms` (`createChannel`); `-1` is documented as "disable" and passed as
 *   `Number.MAX_VALUE`.
 * - @grpc/grpc-js 1.14.7 pings while a call is active (build/src/transport.js `canSendPing`:
 *   `keepaliveWithoutCalls || activeCalls.size > 0`; a subscription is an active call for its whole life);
 *   a ping unanswered within the timeout closes the connection (`maybeSendPing` → `handleDisconnect`), and
 *   every call on it ends UNAVAILABLE "Connection dropped" (subchannel-call.js `onDisconnect`). 6.2.1
 *   raises that as UnavailableError and the adapter resubscribes after the last event it delivered
 *   (esdb.subscription.ts). A paused server is so noticed within interval + timeout: 20 s by default
 *   (measured here: a subscription whose server was paused half a second after it opened ended 20.0 s
 *   after it opened). The new connection then waits for the server's HTTP/2 settings, with no timeout of
 *   its own (transport.js `createSession` resolves on `remoteSettings`), and carries on when the server
 *   resumes (esdb.paused-subscription.e2e.spec.ts).
 * - `keepAliveInterval=-1` leaves pings 2^31 − 1 ms apart (subchannel.js clamps `grpc.keepalive_time_ms` to
 *   `KEEPALIVE_MAX_TIME_MS`): a paused server goes unnoticed for 24.8 days and every projection with it.
 * - `keepAliveTimeout=-1` hands `Number.MAX_VALUE` to `setTimeout`, which Node turns into 1 ms
 *   (TimeoutOverflowWarning): every ping "times out" unless answered within a millisecond, and the
 *   connection, with every subscription and append on it, is dropped at each interval.
 *
 * The server keeps its own keep-alive towards clients (`Grpc.KeepAliveInterval`/`KeepAliveTimeout`,
 * 10 000 ms each, EventStore.Core/Configuration/ClusterVNodeOptions.cs, applied as Kestrel's
 * `Http2.KeepAlivePingDelay`/`KeepAlivePingTimeout` in EventStore.ClusterNode/Program.cs, v24.10.5); it
 * tells the server that a client has gone, never the client that the server has.
 */
import { integerSetting } from './esdb.connection-string';

/** Why this connection string leaves subscriptions unable to notice a stalled server, or undefined when it does not. */
export function keepAliveProblem(connectionString: string): string | undefined {
  for (const name of ['keepAliveInterval', 'keepAliveTimeout']) {
    const ms = integerSetting(connectionString, name);
    if (ms !== undefined && ms < 0) {
      return (
        `${name}=${ms} turns off the gRPC keep-alive that EventStoreDB subscriptions rely on to notice a server ` +
        'that stopped answering (see esdb.keepalive.ts); leave it out (default 10000 ms) or give a positive number of ms'
      );
    }
  }
  return undefined;
}
