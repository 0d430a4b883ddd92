/**
 * The framework ceiling for bench:charges: a bare NestJS 12 app on the same platform as the service
 * (FastifyAdapter, same body limit), one POST route with the same path shape, a JSON body and a JSON
 * answer of the same size as the service's 202 — no guard, no validation pipe, no database. Whatever
 * the service does per request beyond this costs throughput on top of it.
 *
 * Run as its own process: `node -r ./bench/lib/register.js bench/charges/hello-app.ts`; it prints
 * `hello listening on http://…` and serves until SIGTERM.
 */
import 'reflect-metadata';
import { Body, Controller, HttpCode, Module, Param, Post } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';

interface ChargeBody {
  amount: number;
  currency: string;
  customerId: string;
}

@Controller('v1/orders')
class HelloController {
  @Post(':orderId/charge')
  @HttpCode(202)
  charge(@Param('orderId') orderId: string, @Body() body: ChargeBody) {
    const now = new Date().toISOString();
    return {
      orderId,
      status: 'pending',
      amount: body.amount,
      currency: body.currency,
      customerId: body.customerId,
      attempts: 0,
      updatedAt: now,
      revision: 0,
    };
  }
}

@Module({ controllers: [HelloController] })
class HelloModule {}

async function main(): Promise<void> {
  const app = await NestFactory.create<NestFastifyApplication>(HelloModule, new FastifyAdapter({ bodyLimit: 64 * 1024 }), {
    logger: ['error', 'warn'],
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const url = (await app.getUrl()).replace('[::1]', 'localhost');
  process.stdout.write(`hello listening on ${url}\n`);
  const stop = () => void app.close().finally(() => process.exit(0));
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

main().catch((error) => {
  process.stderr.write(`hello app failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
