/**
 * A worker start that fails half-way stops what it had started (newest first) and reports the
 * failure: projections and read models opened before the failing piece must not keep running.
 */
import { loadConfig } from '../config/config';
import type { Feature } from '../features/feature';
import { installJobQueue } from '../jobs/install-job-queue';
import { startJobWorker } from '../jobs/job-worker';
import { startProjections, type RunningProjections } from '../subscriptions/start-projections';
import { startBackground } from './background';
import { openReadModels, type ReadModels } from './read-models';
import type { Runtime } from './runtime';

jest.mock('../jobs/install-job-queue');
jest.mock('../jobs/job-worker');
jest.mock('../subscriptions/start-projections');
jest.mock('./read-models');

let stopped: string[];
const stopping = (name: string) => jest.fn(async () => void stopped.push(name));
let jobPool: { end: jest.Mock };
let runtime: Runtime;

beforeEach(() => {
  stopped = [];
  jobPool = { end: stopping('job pool') };
  runtime = {
    config: loadConfig({ DATABASE_URL: 'postgres://idem@127.0.0.1:1/idem', LOG_LEVEL: 'error' }),
    pool: { query: jest.fn() },
    eventStore: {},
    openPool: () => jobPool,
  } as unknown as Runtime;
  jest.mocked(installJobQueue).mockResolvedValue();
  jest.mocked(openReadModels).mockResolvedValue({ dataSource: {}, close: stopping('read models') } as unknown as ReadModels);
  jest.mocked(startProjections).mockResolvedValue({ stop: stopping('projections') } as unknown as RunningProjections);
  jest.mocked(startJobWorker).mockResolvedValue({ stop: stopping('jobs'), done: new Promise(() => undefined) });
});

const service = (name: string) => async () => ({ stop: stopping(name) });
const failing = async (): Promise<never> => {
  throw new Error('service could not start');
};

describe('startBackground', () => {
  describe('when the job worker fails to start', () => {
    it('stops the projections, closes the read models it opened and its job pool, and rethrows', async () => {
      jest.mocked(startJobWorker).mockRejectedValue(new Error('job queue unreachable'));

      await expect(startBackground(runtime, [])).rejects.toThrow('job queue unreachable');
      expect(stopped).toEqual(['job pool', 'projections', 'read models']);
    });
  });

  describe('when a feature service fails to start', () => {
    it('stops the services started before it, the jobs and the projections, newest first, and rethrows', async () => {
      const features = [
        { name: 'a', services: [service('service a')] },
        { name: 'b', services: [failing] },
      ] as unknown as Feature[];

      await expect(startBackground(runtime, features)).rejects.toThrow('service could not start');
      expect(stopped).toEqual(['service a', 'jobs', 'job pool', 'projections', 'read models']);
    });

    it('leaves read models it was given open: their owner closes them', async () => {
      const shared = { dataSource: {}, close: stopping('shared read models') } as unknown as ReadModels;
      const features = [{ name: 'b', services: [failing] }] as unknown as Feature[];

      await expect(startBackground(runtime, features, { readModels: shared })).rejects.toThrow('service could not start');
      expect(stopped).toEqual(['jobs', 'job pool', 'projections']);
    });
  });

  it('stops everything it started on stop(), services first', async () => {
    const background = await startBackground(runtime, [{ name: 'a', services: [service('service a')] }] as unknown as Feature[]);
    await background.stop();
    expect(stopped).toEqual(['service a', 'jobs', 'job pool', 'projections', 'read models']);
  });
});
