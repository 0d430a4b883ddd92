/**
 * `ServerFeatures.GetSupportedMethods`: the client picks BatchAppend over Append only if it is listed,
 * and silently falls back to HTTP for features that are not (the client's `dist/Client/ServerFeatures.js`), so
 * the emulator lists exactly the methods it serves, with the real server's feature strings (`Grpc/ServerFeatures.cs`,
 * `GetSupportedMethods`, kurrent-io/KurrentDB v24.10.5).
 */
import type { ServerUnaryCall, sendUnaryData } from '@grpc/grpc-js';
import type { EmulatorContext } from './context';
import { featuresPb, type SharedPb } from './proto';

const STREAMS = 'event_store.client.streams.streams';
const FEATURES = 'event_store.client.server_features.serverfeatures';

export function getSupportedMethodsRpc(ctx: EmulatorContext) {
  return (_call: ServerUnaryCall<SharedPb.Empty, unknown>, callback: sendUnaryData<unknown>) => {
    const methods: Array<[string, string, string[]]> = [
      [STREAMS, 'read', ['position', 'events']],
      [STREAMS, 'append', []],
      [STREAMS, 'delete', []],
      [STREAMS, 'tombstone', []],
      ...(ctx.settings.batchAppend ? [[STREAMS, 'batchappend', ['deadline_duration']] as [string, string, string[]]] : []),
      [FEATURES, 'getsupportedmethods', []],
    ];
    const supported = new featuresPb.SupportedMethods().setEventStoreServerVersion(ctx.settings.serverVersion);
    for (const [service, method, features] of methods) {
      supported.addMethods(new featuresPb.SupportedMethod().setServiceName(service).setMethodName(method).setFeaturesList(features));
    }
    callback(null, supported);
  };
}
