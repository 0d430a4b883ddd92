import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { auth } from './test-app';

/** POST /v1/contacts/import of `records` from the `crm` source, as the sync role (plus `headers`). */
export const pushContacts = (app: NestFastifyApplication, records: unknown[], headers: Record<string, string> = {}) =>
  app.inject({ method: 'POST', url: '/v1/contacts/import', headers: { ...auth('sync'), ...headers }, payload: { source: 'crm', records } });
