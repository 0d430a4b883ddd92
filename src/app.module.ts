/**
 * Composition root. It names Idem's features — `idemFeatures()`, the one list main.ts, worker.ts and
 * cli.ts take them from — and builds the HTTP api from them: the kernel's shared providers (config,
 * pool, event store, read-model data source, bearer-token guard, problem+json filter, health) plus
 * each feature's Nest module. These four files are the only ones under src/ that import modules/ or
 * projections/; the kernel receives features as data (src/features/feature.ts).
 */
import { type DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER, APP_GUARD } from '@nestjs/core';
import { BearerTokenGuard, TOKEN_ROLES } from './auth/bearer-token.guard';
import type { ReadModels } from './bootstrap/read-models';
import type { Runtime } from './bootstrap/runtime';
import { IDEM_CONFIG } from './config/config';
import { DATABASE_POOL } from './database/database-pool';
import { READ_MODEL_DATA_SOURCE } from './database/data-source';
import { KnownQueryParametersGuard } from './errors/known-query-parameters.guard';
import { ProblemJsonFilter } from './errors/problem-json.filter';
import { EVENT_STORE } from './event-store/event-store.port';
import type { Feature } from './features/feature';
import { HealthController } from './health/health.controller';
import { paymentsFeature, type PaymentsPorts } from '../modules/payments';
import { contactsFeature, type ContactsPorts } from '../modules/contacts';
import { supportFeature } from '../modules/support';
import { auditFeature } from '../modules/audit';

/** Replacements for the ports features otherwise build from configuration (tests pass their own). */
export interface FeaturePorts {
  paymentGateway?: PaymentsPorts['gateway'];
  contactSources?: ContactsPorts['sources'];
}

/** Every feature of Idem, in the order their read models, tasks and commands are listed. A new feature is one entry here. */
export function idemFeatures(ports: FeaturePorts = {}): Feature[] {
  return [
    paymentsFeature({ gateway: ports.paymentGateway }),
    contactsFeature({ sources: ports.contactSources }),
    supportFeature(),
    auditFeature(),
  ];
}

/** What the api is built from besides the runtime. */
export interface ApiParts {
  features: readonly Feature[];
  /** Opened (migrated, installed) by the caller for these features. */
  readModels: ReadModels;
}

@Module({})
export class AppModule {
  static forRuntime(runtime: Runtime, { features, readModels }: ApiParts): DynamicModule {
    return {
      module: AppModule,
      global: true,
      imports: features.flatMap((feature) => (feature.module ? [feature.module] : [])),
      controllers: [HealthController],
      providers: [
        { provide: IDEM_CONFIG, useValue: runtime.config },
        { provide: DATABASE_POOL, useValue: runtime.pool },
        { provide: EVENT_STORE, useValue: runtime.eventStore },
        { provide: READ_MODEL_DATA_SOURCE, useValue: readModels.dataSource },
        { provide: TOKEN_ROLES, useValue: runtime.config.tokens },
        { provide: APP_GUARD, useClass: BearerTokenGuard },
        // After the bearer token's guard: 401/403 come before a 400 for the query.
        { provide: APP_GUARD, useClass: KnownQueryParametersGuard },
        { provide: APP_FILTER, useClass: ProblemJsonFilter },
      ],
      exports: [IDEM_CONFIG, DATABASE_POOL, EVENT_STORE, READ_MODEL_DATA_SOURCE],
    };
  }
}
