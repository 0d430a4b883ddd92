/**
 * A start-up that fails after the embedded cluster started stops it again: a cluster left running
 * holds the data directory, so the next start would fail as well.
 */
import { loadConfig } from '../config/config';
import { ensureDatabase } from '../database/create-database';
import { startEmbeddedPostgres, type EmbeddedCluster } from '../database/embedded-postgres';
import { startRuntime } from './runtime';

jest.mock('../database/embedded-postgres');
jest.mock('../database/create-database');

describe('startRuntime', () => {
  describe('when the embedded database cannot be created', () => {
    it('stops the embedded cluster it started and reports the failure', async () => {
      const cluster: EmbeddedCluster = {
        port: 1,
        dataDir: '/nowhere',
        urlFor: (database) => `postgres://x@127.0.0.1:1/${database}`,
        stop: jest.fn(),
      };
      jest.mocked(startEmbeddedPostgres).mockResolvedValue(cluster);
      jest.mocked(ensureDatabase).mockRejectedValue(new Error('disk full'));

      await expect(startRuntime(loadConfig({ IDEM_DATA_DIR: '/nowhere', LOG_LEVEL: 'error' }))).rejects.toThrow('disk full');
      expect(cluster.stop).toHaveBeenCalledTimes(1);
    });
  });
});
