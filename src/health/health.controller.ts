/**
 * Liveness says the process answers; readiness says it can do its job: the database and the event
 * store are reachable. (The operations work extends readiness with projection lag.)
 */
import { Controller, Get, Inject, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import type { Pool } from 'pg';
import type { EventStore } from '../event-store/event-store.port';
import { DATABASE_POOL } from '../database/database-pool';
import { EVENT_STORE } from '../event-store/event-store.port';

type Check = { status: 'up' | 'down'; error?: string };

@Controller('health')
export class HealthController {
  constructor(
    @Inject(DATABASE_POOL) private readonly pool: Pool,
    @Inject(EVENT_STORE) private readonly eventStore: EventStore,
  ) {}

  @Get('live')
  live() {
    return { status: 'up' };
  }

  @Get('ready')
  async ready(@Res({ passthrough: true }) reply: FastifyReply) {
    const checks = {
      database: await probe(() => this.pool.query('SELECT 1')),
      eventStore: await probe(() => this.eventStore.ping()),
    };
    const ready = Object.values(checks).every((check) => check.status === 'up');
    void reply.status(ready ? 200 : 503);
    return { status: ready ? 'up' : 'down', checks };
  }
}

async function probe(check: () => Promise<unknown>, timeoutMs = 2000): Promise<Check> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      check(),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
      }),
    ]);
    return { status: 'up' };
  } catch (error) {
    return { status: 'down', error: (error as Error).message };
  } finally {
    clearTimeout(timer);
  }
}
