/**
 * The emulator speaks the client's own generated protocol. Every message class, service definition and
 * grpc-js instance is loaded through `@eventstore/db-client`'s own module resolution: the generated
 * serialisers check `instanceof` (`generated/streams_grpc_pb.js`, `serialize_*`), so a second copy of any of them would make grpc-js throw
 * "Expected argument of type …" on the first response.
 */
import { dirname } from 'node:path';
import type * as GrpcJs from '@grpc/grpc-js';
import type * as StreamsPb from '@eventstore/db-client/generated/streams_pb';
import type * as SharedPb from '@eventstore/db-client/generated/shared_pb';
import type * as StatusPb from '@eventstore/db-client/generated/status_pb';
import type * as FeaturesPb from '@eventstore/db-client/generated/serverfeatures_pb';
import type * as GossipPb from '@eventstore/db-client/generated/gossip_pb';
import type * as AnyPb from 'google-protobuf/google/protobuf/any_pb';
import type * as EmptyPb from 'google-protobuf/google/protobuf/empty_pb';

const clientDir = dirname(require.resolve('@eventstore/db-client'));
const generatedDir = dirname(require.resolve('@eventstore/db-client/generated/streams_pb', { paths: [clientDir] }));

function load<T>(id: string, from = clientDir): T {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require(require.resolve(id, { paths: [from] })) as T;
}

export const grpc = load<typeof GrpcJs>('@grpc/grpc-js');
export const streamsPb = load<typeof StreamsPb>('@eventstore/db-client/generated/streams_pb');
export const sharedPb = load<typeof SharedPb>('@eventstore/db-client/generated/shared_pb');
export const statusPb = load<typeof StatusPb>('@eventstore/db-client/generated/status_pb');
export const featuresPb = load<typeof FeaturesPb>('@eventstore/db-client/generated/serverfeatures_pb');
export const gossipPb = load<typeof GossipPb>('@eventstore/db-client/generated/gossip_pb');
export const anyPb = load<typeof AnyPb>('google-protobuf/google/protobuf/any_pb.js', generatedDir);
export const jspb = load<typeof import('google-protobuf')>('google-protobuf', generatedDir);
export const emptyPb = load<typeof EmptyPb>('google-protobuf/google/protobuf/empty_pb.js', generatedDir);

export const { StreamsService, StreamsClient } = load<{
  StreamsService: GrpcJs.ServiceDefinition;
  StreamsClient: GrpcJs.ServiceClientConstructor;
}>('@eventstore/db-client/generated/streams_grpc_pb');
export const { ServerFeaturesService, ServerFeaturesClient } = load<{
  ServerFeaturesService: GrpcJs.ServiceDefinition;
  ServerFeaturesClient: GrpcJs.ServiceClientConstructor;
}>('@eventstore/db-client/generated/serverfeatures_grpc_pb');

export const { GossipService, GossipClient } = load<{
  GossipService: GrpcJs.ServiceDefinition;
  GossipClient: GrpcJs.ServiceClientConstructor;
}>('@eventstore/db-client/generated/gossip_grpc_pb');

export type { FeaturesPb, GossipPb, GrpcJs, SharedPb, StreamsPb };
