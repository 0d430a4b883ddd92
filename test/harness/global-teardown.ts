import type { EmbeddedCluster } from '../../src/database/embedded-postgres';

export default async function globalTeardown(): Promise<void> {
  const cluster = (globalThis as { __IDEM_TEST_CLUSTER__?: EmbeddedCluster }).__IDEM_TEST_CLUSTER__;
  await cluster?.stop();
}
