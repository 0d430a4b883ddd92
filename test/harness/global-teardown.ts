import { rm } from 'node:fs/promises';
import type { EmbeddedCluster } from '../../src/database/embedded-postgres';

export default async function globalTeardown(): Promise<void> {
  const clusters = (globalThis as { __IDEM_TEST_CLUSTERS__?: EmbeddedCluster[] }).__IDEM_TEST_CLUSTERS__ ?? [];
  await Promise.all(clusters.map((cluster) => cluster.stop()));
  // The stopped clusters removed their files; the directories global-setup made for them stay unless removed.
  await Promise.all(clusters.map((cluster) => rm(cluster.dataDir, { recursive: true, force: true })));
}
