/**
 * Composition root of the HTTP api: the only place (with worker.ts and cli.ts) that imports feature
 * modules and projections.
 */
import { type DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER, APP_GUARD } from '@nestjs/core';
import { BearerTokenGuard, TOKEN_ROLES } from './auth/bearer-token.guard';
import type { Runtime } from './bootstrap/runtime';
import { DATABASE_POOL } from './database/database-pool';
import { EVENT_STORE } from './event-store/event-store.port';
import { IDEM_CONFIG } from './config/config';
import { ProblemJsonFilter } from './errors/problem-json.filter';
import { HealthController } from './health/health.controller';
import { ORDER_READ_MODEL, PAYMENT_GATEWAY, PaymentsModule, type OrderReadModel, type PaymentGateway } from '../modules/payments';
import { SupportModule } from '../modules/support';
import { CONTACT_SOURCES_PORT, ContactsModule, type ContactSources } from '../modules/contacts';

/** What the composition root hands the api besides the runtime. */
export interface ApiParts {
  paymentGateway: PaymentGateway;
  orders: OrderReadModel;
  /** Where pull runs read contacts (none configured: POST /v1/sync/runs answers 422). */
  contactSources?: ContactSources;
}

@Module({})
export class AppModule {
  static forRuntime(runtime: Runtime, parts: ApiParts): DynamicModule {
    return {
      module: AppModule,
      global: true,
      imports: [PaymentsModule, SupportModule, ContactsModule],
      controllers: [HealthController],
      providers: [
        { provide: IDEM_CONFIG, useValue: runtime.config },
        { provide: DATABASE_POOL, useValue: runtime.pool },
        { provide: EVENT_STORE, useValue: runtime.eventStore },
        { provide: TOKEN_ROLES, useValue: runtime.config.tokens },
        { provide: PAYMENT_GATEWAY, useValue: parts.paymentGateway },
        { provide: ORDER_READ_MODEL, useValue: parts.orders },
        { provide: CONTACT_SOURCES_PORT, useValue: parts.contactSources ?? (() => undefined) },
        { provide: APP_GUARD, useClass: BearerTokenGuard },
        { provide: APP_FILTER, useClass: ProblemJsonFilter },
      ],
      exports: [IDEM_CONFIG, DATABASE_POOL, EVENT_STORE, PAYMENT_GATEWAY, ORDER_READ_MODEL, CONTACT_SOURCES_PORT],
    };
  }
}
