/**
 * Who may call a Streams RPC, as a server started with default options decides it (KurrentDB v24.10.5):
 *
 * - insecure node: no authentication at all (`ClusterVNode.cs`: `Insecure` selects the
 *   `PassthroughAuthenticationProviderFactory` and `PassthroughAuthorizationProviderFactory`);
 * - secure node, `authorization: Basic …` present: `BasicHttpAuthenticationProvider.Authenticate` decodes
 *   `user:password`; the default users are `admin` and `ops`, both `changeit`
 *   (`Services/SystemUsers.cs`, `ClusterVNodeOptions.DefaultUserOptions`); anything else is refused by
 *   `AuthenticationMiddleware.HandleAsGrpcAsync` with `Status(Unauthenticated, "Unauthenticated")`;
 * - secure node, no credentials: anonymous, and stream access is denied to anonymous users
 *   (`ClusterVNodeOptions.AllowAnonymousStreamAccess = false`) with `RpcExceptions.AccessDenied()`.
 */
import type { GrpcJs } from './proto';
import { rpcErrors, type RpcError } from './rpc-errors';

const DEFAULT_USERS: ReadonlyMap<string, string> = new Map([
  ['admin', 'changeit'],
  ['ops', 'changeit'],
]);

/**
 * Who the caller is: a user (every caller of an insecure node), anonymous (no `Basic` credentials:
 * `BasicHttpAuthenticationProvider.Authenticate` declines and `AnonymousHttpAuthenticationProvider` takes the call),
 * or refused by the authentication middleware.
 */
export type Caller = 'user' | 'anonymous' | 'unauthenticated';

export function callerOf(metadata: GrpcJs.Metadata, secure: boolean): Caller {
  if (!secure) return 'user';
  const [header, ...more] = metadata.get('authorization').map(String);
  if (header === undefined) return 'anonymous';
  const basic = more.length === 0 ? /^Basic (.+)$/.exec(header) : null;
  if (!basic) return 'anonymous';
  const decoded = Buffer.from(basic[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return 'anonymous';
  const user = decoded.slice(0, colon);
  return DEFAULT_USERS.get(user) === decoded.slice(colon + 1) ? 'user' : 'unauthenticated';
}

export function refusedCaller(metadata: GrpcJs.Metadata, secure: boolean): RpcError | undefined {
  const caller = callerOf(metadata, secure);
  if (caller === 'user') return undefined;
  return caller === 'anonymous' ? rpcErrors.accessDenied() : rpcErrors.unauthenticated();
}

/**
 * Wraps a handler so a refused caller gets its status before the handler sees the call. `anonymousInBand`: the
 * handler itself answers an anonymous caller (BatchAppend checks access per request and answers in-band).
 */
export function guarded<
  Call extends { metadata: GrpcJs.Metadata; emit(event: 'error', error: unknown): boolean },
  Callback extends (error: RpcError) => void,
>(secure: () => boolean, handler: (call: Call, callback: Callback) => void, anonymousInBand = false): GrpcJs.UntypedHandleCall {
  const guard = (call: Call, callback: Callback) => {
    const caller = callerOf(call.metadata, secure());
    const refused = caller === 'anonymous' && anonymousInBand ? undefined : refusedCaller(call.metadata, secure());
    if (!refused) return handler(call, callback);
    // Unary and client-streaming handlers answer through the callback, streaming ones on the call.
    if (typeof callback === 'function') callback(refused);
    else call.emit('error', refused);
  };
  return guard as unknown as GrpcJs.UntypedHandleCall;
}
