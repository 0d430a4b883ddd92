/**
 * The projections whose lag the api reports (/metrics, /health/ready): every read model and reactor of
 * the features the api was built with, whether or not this process runs them. Their checkpoints are
 * in the shared database, so the lag is the same seen from any process.
 */
import type { IdemConfig } from '../config/config';
import { reactorsOf, readModelsOf, type Feature } from '../features/feature';
import type { Projection } from '../subscriptions/projection';
import { readModelProjection } from '../subscriptions/read-models/read-model.projection';

/** Nest injection token of the api's `Projection[]`. */
export const OBSERVED_PROJECTIONS = Symbol('OBSERVED_PROJECTIONS');

export const observedProjections = (features: readonly Feature[], config: IdemConfig): Projection[] => [
  ...readModelsOf(features).map(readModelProjection),
  ...reactorsOf(features, config),
];
