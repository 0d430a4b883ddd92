/** The emulator's gRPC server: which services it serves, how it binds (plain or TLS) and how it goes away. */
import { appendRpc } from './append.rpc';
import { batchAppendRpc } from './batch-append.rpc';
import type { EmulatorContext } from './context';
import { guarded } from './credentials';
import { deleteRpc, tombstoneRpc } from './delete.rpc';
import { gossipReadRpc } from './gossip.rpc';
import { GossipService, ServerFeaturesService, StreamsService, grpc, type GrpcJs } from './proto';
import { EFFECTIVE_MAX_LOG_RECORD_SIZE } from './proposed-events';
import { readRpc } from './read.rpc';
import { getSupportedMethodsRpc } from './server-features.rpc';
import type { TlsMaterial } from './tls';

export function createServer(ctx: EmulatorContext): GrpcJs.Server {
  // `ClusterVNodeStartup`: the Streams service takes messages up to `EffectiveMaxLogRecordSize` (grpc-js: 4 MiB).
  const server = new grpc.Server({ 'grpc.max_receive_message_length': EFFECTIVE_MAX_LOG_RECORD_SIZE });
  const unimplemented = (call: { emit(event: 'error', error: unknown): void }) =>
    call.emit('error', { code: grpc.status.UNIMPLEMENTED, details: 'BatchAppend is switched off' });
  const secure = () => ctx.secure;
  server.addService(StreamsService, {
    read: guarded(secure, readRpc(ctx)),
    append: guarded(secure, appendRpc(ctx)),
    batchAppend: ctx.settings.batchAppend ? guarded(secure, batchAppendRpc(ctx), true) : unimplemented,
    delete: guarded(secure, deleteRpc(ctx)),
    tombstone: guarded(secure, tombstoneRpc(ctx)),
  });
  server.addService(ServerFeaturesService, { getSupportedMethods: getSupportedMethodsRpc(ctx) });
  server.addService(GossipService, { read: gossipReadRpc(() => ctx.gossip?.() ?? []) });
  return server;
}

export function bind(server: GrpcJs.Server, port: number, tls: TlsMaterial | undefined): Promise<number> {
  const credentials = tls
    ? grpc.ServerCredentials.createSsl(null, [{ private_key: tls.node.key, cert_chain: tls.node.cert }], false)
    : grpc.ServerCredentials.createInsecure();
  return new Promise((resolve, reject) =>
    server.bindAsync(`127.0.0.1:${port}`, credentials, (error, bound) => (error ? reject(error) : resolve(bound))),
  );
}

/** Lets the calls just ended with UNAVAILABLE deliver their status, then cuts whatever is left. */
export async function shutdown(server: GrpcJs.Server): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    new Promise<void>((resolve) => server.tryShutdown(() => resolve())),
    new Promise<void>((resolve) => (timer = setTimeout(resolve, 1_000))),
  ]);
  clearTimeout(timer);
  server.forceShutdown();
}
