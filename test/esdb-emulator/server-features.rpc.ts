/**
 * `ServerFeatures.GetSupportedMethods` (`Grpc/ServerFeatures.cs`, kurrent-io/KurrentDB v24.10.5): the server lists
 * every gRPC endpoint whose service name contains "client", names lower-cased, with its feature strings (Streams
 * `read` "position", "events"; `batchappend` "deadline_duration"; persistent subscriptions "stream", "all"; projection
 * `create` "track_emitted_streams"), and the version's first three parts. The client picks BatchAppend over Append
 * only if it is listed, and falls back to HTTP, or refuses, for features that are not (the client's
 * `dist/Client/ServerFeatures.js` and its `supports(…)` callers), so the emulator lists only the methods it serves —
 * Streams, ServerFeatures and the client Gossip — with the server's strings; it leaves out the services it does not
 * emulate (persistent subscriptions, users, operations, monitoring, redaction, projections).
 */
import type { ServerUnaryCall, sendUnaryData } from '@grpc/grpc-js';
import type { EmulatorContext } from './context';
import { featuresPb, type SharedPb } from './proto';

const STREAMS = 'event_store.client.streams.streams';
const FEATURES = 'event_store.client.server_features.serverfeatures';
const GOSSIP = 'event_store.client.gossip.gossip';

export function getSupportedMethodsRpc(ctx: EmulatorContext) {
  return (_call: ServerUnaryCall<SharedPb.Empty, unknown>, callback: sendUnaryData<unknown>) => {
    const methods: Array<[string, string, string[]]> = [
      [STREAMS, 'read', ['position', 'events']],
      [STREAMS, 'append', []],
      [STREAMS, 'delete', []],
      [STREAMS, 'tombstone', []],
      ...(ctx.settings.batchAppend ? [[STREAMS, 'batchappend', ['deadline_duration']] as [string, string, string[]]] : []),
      [FEATURES, 'getsupportedmethods', []],
      [GOSSIP, 'read', []],
    ];
    const supported = new featuresPb.SupportedMethods().setEventStoreServerVersion(ctx.settings.serverVersion);
    for (const [service, method, features] of methods) {
      supported.addMethods(new featuresPb.SupportedMethod().setServiceName(service).setMethodName(method).setFeaturesList(features));
    }
    callback(null, supported);
  };
}
