/**
 * `npm start`: the whole service in one process on embedded defaults — PostgreSQL, the api (and,
 * as they land, the worker, the sandbox provider and the admin screen) — and a banner that says
 * where everything is. With DATABASE_URL / IDEM_TOKENS it is the production api process.
 */
import 'reflect-metadata';
import { loadConfig } from './config/config';
import { ConfigError } from './config/config-error';
import { createHttpApp } from './bootstrap/http-app';
import { startRuntime } from './bootstrap/runtime';
import { startupBanner } from './bootstrap/banner';

async function main(): Promise<void> {
  const config = loadConfig();
  const runtime = await startRuntime(config);
  const app = await createHttpApp(runtime);
  await app.listen({ port: config.http.port, host: config.http.host });
  const url = await app.getUrl();
  process.stdout.write(startupBanner({ config, url, runtime }));

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    process.stdout.write(`\n${signal}: stopping (finishing requests, closing the database)…\n`);
    await app.close();
    await runtime.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

main().catch((error) => {
  if (error instanceof ConfigError) {
    process.stderr.write(`${error.message}\n`);
  } else {
    process.stderr.write(`Idem failed to start: ${error instanceof Error ? error.stack : String(error)}\n`);
  }
  process.exit(1);
});
