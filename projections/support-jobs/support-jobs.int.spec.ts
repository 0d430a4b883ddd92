/**
 * A pull run that the five-failures rule stopped (the sandbox CRM failing one page every time) is a
 * case for support: the support_jobs read model lists it among the jobs needing review, with the
 * reason. A database whose support_jobs was projected before this projector knew the event gets the
 * run right in the next version, built by `idem projections rebuild` while the old one serves.
 */
import { contactSourcesAt, driveRun, startRun, type RunDriverDeps } from '../../modules/contacts';
import { chargeOrder, chargeOrderJobKey, orderCommands, StripePaymentGateway } from '../../modules/payments';
import { createSandbox, type Sandbox } from '../../modules/sandbox';
import { createReadModelDataSource } from '../../src/database/data-source';
import { readModelProjection } from '../../src/subscriptions/read-models/read-model.projection';
import { rebuildReadModels } from '../../src/subscriptions/read-models/rebuild';
import { verifyReadModel } from '../../src/subscriptions/read-models/verify';
import { startProjections } from '../../src/subscriptions/start-projections';
import { createProjectionDatabase, waitUntilCaughtUp, type ProjectionDatabase } from '../../test/projections/projection-harness';
import { SupportJobRow } from './support-jobs.entity';
import { importRunJobId, supportJobsReadModel } from './support-jobs.projector';
import { SupportJobQueries } from './support-jobs.queries';
import { noOutsidePayments } from '../../test/harness/outside-payments';

/** support_jobs as projected before it followed runs into and out of review. */
const supportJobsBeforeReview = {
  ...supportJobsReadModel,
  filter: {
    ...supportJobsReadModel.filter,
    eventTypes: supportJobsReadModel.filter.eventTypes!.filter((type) => type !== 'ImportRunNeedsReview' && type !== 'ImportRunResumed'),
  },
};

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await createSandbox({ crm: { seed: 11, size: 400 } });
  sandbox.createCustomer({ id: 'cus_3ds' });
});
afterAll(() => sandbox.close());

const metadata: RunDriverDeps['metadata'] = { correlationId: 'test', causationId: 'test', actor: { role: 'sync', tokenId: 'test' } };
const startPullRun = (db: ProjectionDatabase) => startRun(db.store, { source: 'crm', startedBy: 'test', kind: 'pull' }, metadata);

/** A database with one pull run that page 2 failing five times in a row stopped. */
async function databaseWithStoppedRun(label: string) {
  const db = await createProjectionDatabase(label);
  const dataSource = await createReadModelDataSource({ url: db.url, entities: [SupportJobRow], poolSize: 2 }).initialize();
  const close = async () => {
    await dataSource.destroy();
    await db.close();
  };
  const deps: RunDriverDeps = { store: db.store, sources: contactSourcesAt(sandbox.url), pageSize: 200, backoffMs: 5, metadata };
  await control('POST', '/crm/_control/faults', { page: 2, kind: 'error_500' });
  try {
    const stopped = await driveRun(deps, await startPullRun(db));
    expect(stopped).toMatchObject({ status: 'needs_review', pages: 1, reason: expect.stringContaining('failed 5 times in a row') });
    return { db, jobs: new SupportJobQueries(dataSource), jobId: importRunJobId(stopped.runId), reason: stopped.reason!, close };
  } catch (error) {
    await close();
    throw error;
  } finally {
    await control('DELETE', '/crm/_control/faults');
  }
}

async function control(method: string, path: string, body?: unknown): Promise<void> {
  const response = await fetch(`${sandbox.url}${path}`, {
    method,
    ...(body !== undefined ? { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) } : {}),
  });
  expect(response.ok).toBe(true);
}

async function project(db: ProjectionDatabase, model: typeof supportJobsReadModel): Promise<void> {
  const running = await startProjections({ store: db.store, pool: db.pool, readModels: [model], reactors: [] });
  try {
    await waitUntilCaughtUp(db.store, db.pool, [readModelProjection(model)]);
  } finally {
    await running.stop();
  }
}

describe('support_jobs, for a pull run stopped by the five-failures rule', () => {
  it('lists the run among the jobs needing review, with the reason as its last error', async () => {
    const { db, jobs, jobId, reason, close } = await databaseWithStoppedRun('support_jobs_run_review');
    try {
      await project(db, supportJobsReadModel);

      const expected = { jobId, kind: 'import-run', externalReference: 'crm', status: 'needs_review', lastError: reason };
      expect(await jobs.needingReview()).toEqual([expect.objectContaining(expected)]);
      expect(await jobs.search(jobId)).toEqual([expect.objectContaining(expected)]);
    } finally {
      await close();
    }
  });

  describe('on a database projected before support_jobs followed runs into review', () => {
    it('shows the run in review in the rebuilt version 2; version 1, which served until the switch, showed it running', async () => {
      const { db, jobs, jobId, reason, close } = await databaseWithStoppedRun('support_jobs_run_review_rebuild');
      try {
        // A run started later: the old version's checkpoint is past the review, so only a rebuild shows it.
        await startPullRun(db);
        await project(db, supportJobsBeforeReview);
        expect(await jobs.search(jobId)).toEqual([expect.objectContaining({ status: 'pending', lastError: null })]);
        const drift = await verifyReadModel(db.store, db.pool, supportJobsReadModel);
        expect(drift).toMatchObject({ version: 1, differences: [expect.objectContaining({ kind: 'different' })] });

        const [switched] = await rebuildReadModels({ store: db.store, pool: db.pool, models: [supportJobsReadModel] });

        expect(switched).toMatchObject({ from: 1, to: 2 });
        expect(await jobs.needingReview()).toEqual([expect.objectContaining({ jobId, status: 'needs_review', lastError: reason })]);
        expect(await verifyReadModel(db.store, db.pool, supportJobsReadModel)).toMatchObject({ version: 2, differences: [] });
      } finally {
        await close();
      }
    });
  });
});

describe('support_jobs, for a charge whose card needs 3-D Secure', () => {
  it("shows the payment intent the review names as the provider reference, as it shows a decline's", async () => {
    const db = await createProjectionDatabase('support_jobs_3ds_review');
    const dataSource = await createReadModelDataSource({ url: db.url, entities: [SupportJobRow], poolSize: 2 }).initialize();
    try {
      const orderId = 'o-3ds';
      const requested = {
        type: 'ChargeRequested' as const,
        data: {
          orderId,
          amount: 4200,
          currency: 'EUR',
          customerId: 'cus_3ds',
          requestFingerprint: 'f',
          providerKey: 'k-3ds',
          requestNumber: 1,
        },
      };
      await orderCommands.handle(db.store, orderId, () => [{ event: requested, key: 'requested' }], { metadata });
      const gateway = new StripePaymentGateway({
        secretKey: 'sk_test_idem',
        baseUrl: sandbox.url,
        maxNetworkRetries: 0,
        paymentMethod: 'pm_card_authenticationRequired',
      });
      expect(await chargeOrder({ store: db.store, gateway, workerId: 'w1', outsidePayments: noOutsidePayments }, orderId)).toBe('settled');
      const [intent] = sandbox.charges({ orderId });

      await project(db, supportJobsReadModel);

      const jobs = new SupportJobQueries(dataSource);
      expect(await jobs.search(chargeOrderJobKey(orderId))).toEqual([
        expect.objectContaining({ status: 'needs_review', externalReference: intent.id }),
      ]);
    } finally {
      await dataSource.destroy();
      await db.close();
    }
  });
});
