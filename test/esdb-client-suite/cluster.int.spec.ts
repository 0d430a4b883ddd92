/**
 * The client suite's stand-in Cluster leaves nothing behind: the certificates it generated for a TLS
 * node are removed with the node.
 */
import { existsSync } from 'node:fs';
import { dirname } from 'node:path';
import { Cluster } from './cluster';

describe('Cluster (the client suite on the emulator)', () => {
  it('removes the certificates it generated when it goes down', async () => {
    const node = new Cluster(1);
    await node.up();
    const folder = dirname(dirname(node.certPath.root)); // <folder>/ca/ca.crt (tls.ts)
    expect(existsSync(folder)).toBe(true);
    await node.down();
    expect(existsSync(folder)).toBe(false);
  });
});
