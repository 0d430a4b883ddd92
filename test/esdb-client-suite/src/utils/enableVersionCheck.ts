/**
 * The suite's `@jest-environment ./src/utils/enableVersionCheck.ts` docblock resolves against jest's
 * rootDir, which is this harness folder, so this file sits at that path. As the client's own
 * environment does, it asks a fresh node for its capabilities (server version, supported methods) so
 * the suite's `matchServerVersion` can answer.
 */
import { EventStoreDBClient } from '@eventstore/db-client';
import { TestEnvironment } from 'jest-environment-node';
import { Cluster } from '../../cluster';

class CapabilitiesEnvironment extends TestEnvironment {
  override async setup(): Promise<void> {
    await super.setup();
    const node = new Cluster(1);
    await node.up();
    const client = new EventStoreDBClient(
      { endpoint: node.uri },
      { rootCertificate: node.certs.root },
      { username: 'admin', password: 'changeit' },
    );
    try {
      // `capabilities` is protected on the client; the suite's own environment reads it the same way.
      this.global.capabilities = await (client as unknown as { capabilities: Promise<unknown> }).capabilities;
    } finally {
      await client.dispose();
      await node.down();
    }
  }
}

module.exports = CapabilitiesEnvironment;
