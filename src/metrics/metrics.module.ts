/**
 * The api's operations surface besides health: /metrics, and the providers health shares with it. It
 * is global so the kernel's health controller (declared in AppModule) can inject the observed projections.
 */
import { type DynamicModule, Module } from '@nestjs/common';
import type { Registry } from 'prom-client';
import type { IdemConfig } from '../config/config';
import type { Feature } from '../features/feature';
import { MetricsController } from './metrics.controller';
import { METRICS_REGISTRY } from './metrics-registry';
import { OBSERVED_PROJECTIONS, observedProjections } from './observed-projections';

@Module({})
export class MetricsModule {
  static forApi(features: readonly Feature[], registry: Registry, config: IdemConfig): DynamicModule {
    return {
      module: MetricsModule,
      global: true,
      controllers: [MetricsController],
      providers: [
        { provide: METRICS_REGISTRY, useValue: registry },
        { provide: OBSERVED_PROJECTIONS, useValue: observedProjections(features, config) },
      ],
      exports: [OBSERVED_PROJECTIONS],
    };
  }
}
