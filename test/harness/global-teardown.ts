import type { EmbeddedCluster } from '../../src/database/embedded-postgres';

export default async function globalTeardown(): Promise<void> {
  const clusters = (globalThis as { __IDEM_TEST_CLUSTERS__?: EmbeddedCluster[] }).__IDEM_TEST_CLUSTERS__ ?? [];
  await Promise.all(clusters.map((cluster) => cluster.stop()));
}
