/**
 * Counts the answers this api process gave with `Idempotent-Replayed: true` — a charge request, a
 * contacts batch or a provider webhook sent again and answered from what was recorded, with no new work. Nothing persists a
 * replay (that is the point: it writes nothing), so the count is per process and starts at zero.
 */
import { Injectable, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';

@Injectable()
export class ReplayedAnswers implements OnModuleInit {
  readonly since = new Date();
  private count = 0;

  constructor(private readonly adapterHost: HttpAdapterHost) {}

  get total(): number {
    return this.count;
  }

  onModuleInit(): void {
    const fastify = this.adapterHost.httpAdapter.getInstance<FastifyInstance>();
    // onResponse runs after the answer is sent, and a callback hook allocates no promise: the hot
    // charge path pays one header lookup.
    fastify.addHook('onResponse', (_request, reply, done) => {
      if (reply.getHeader('idempotent-replayed') === 'true') this.count++;
      done();
    });
  }
}
