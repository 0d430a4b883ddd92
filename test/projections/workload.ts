/**
 * A realistic, deterministic mix of Idem's streams for projection tests and the rebuild benchmark:
 * orders that mostly succeed and sometimes fail, time out, get re-requested or need review; contacts
 * imported in several versions; import runs. Each stream is a script of events appended in order.
 */
import { randomUUID } from 'node:crypto';
import type { EventToAppend } from '../../src/event-store/event-store.port';

export interface StreamScript {
  stream: string;
  events: EventToAppend[];
}

export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

let clock = Date.parse('2026-01-01T00:00:00Z');

function event(type: string, data: Record<string, unknown>, correlationId: string): EventToAppend {
  clock += 7;
  return {
    id: randomUUID(),
    type,
    data,
    metadata: {
      correlationId,
      causationId: correlationId,
      actor: { role: 'storefront', tokenId: 'bench' },
      recordedAt: new Date(clock).toISOString(),
    },
  };
}

export function orderScript(orderId: string, random: () => number): StreamScript {
  const request = randomUUID();
  const amount = 100 + Math.floor(random() * 50_000);
  const customerId = `cus_${Math.floor(random() * 50_000)}`;
  const requested = (n: number) =>
    event(
      'ChargeRequested',
      {
        orderId,
        amount,
        currency: 'EUR',
        customerId,
        requestFingerprint: `fp-${orderId}-${n}`,
        providerKey: `idem-${orderId}-${n}`,
        requestNumber: n,
      },
      request,
    );
  const attempt = (n: number) =>
    event('ChargeAttemptStarted', { orderId, attempt: n, workerId: 'w1', providerKey: `idem-${orderId}` }, request);
  const succeeded = (recovered: boolean) =>
    event(
      'ChargeSucceeded',
      { orderId, paymentIntentId: `pi_${orderId}`, providerChargeId: `ch_${orderId}`, amount, currency: 'EUR', recovered },
      request,
    );
  const events = [requested(1), attempt(1)];
  const roll = random();
  if (roll < 0.78) events.push(succeeded(false));
  else if (roll < 0.86)
    events.push(event('ChargeFailed', { orderId, attempt: 1, declineCode: 'card_declined', reason: 'Your card was declined.' }, request));
  else if (roll < 0.91) {
    events.push(event('ChargeFailed', { orderId, attempt: 1, declineCode: 'insufficient_funds', reason: 'Insufficient funds.' }, request));
    events.push(requested(2), attempt(1), succeeded(false));
  } else if (roll < 0.97) {
    events.push(event('ChargeOutcomeUnknown', { orderId, attempt: 1, error: 'ETIMEDOUT' }, request), attempt(2), succeeded(true));
  } else if (roll < 0.99) {
    events.push(event('ChargeOutcomeUnknown', { orderId, attempt: 1, error: 'HTTP 503' }, request));
    events.push(event('ChargeNeedsReview', { orderId, reason: 'contradictory provider data' }, request));
    events.push(event('ChargeReviewResolved', { orderId, actor: 'support', note: 'checked with provider', resolution: 'paid' }, request));
  } // else: still processing
  return { stream: `order-${orderId}`, events };
}

export function contactScript(source: string, sourceId: string, random: () => number): StreamScript {
  const versions = 1 + Math.floor(random() * 3);
  const events = Array.from({ length: versions }, (_, i) =>
    event(
      'ContactImported',
      {
        source,
        sourceId,
        sourceVersion: i + 1,
        sourceUpdatedAt: new Date(clock + i).toISOString(),
        checksum: `sha-${sourceId}-${i + 1}`,
        fields: { email: `c${sourceId}@example.test`, name: `Customer ${sourceId}`, tier: i % 2 ? 'gold' : 'standard' },
      },
      randomUUID(),
    ),
  );
  return { stream: `contact-${source}.${sourceId}`, events };
}

export function importScript(runId: string, records: number): StreamScript {
  const request = randomUUID();
  const events = [event('ImportRunStarted', { runId, source: 'crm', startedBy: 'sync' }, request)];
  events.push(event('ImportPageFetched', { runId, cursor: null, records }, request));
  for (let i = 0; i < records; i++) {
    events.push(
      event(
        'ImportRecordProcessed',
        {
          runId,
          seq: i,
          source: 'crm',
          sourceId: `${i}`,
          revision: 0,
          checksum: `sha-${i}`,
          sourceUpdatedAt: new Date(clock).toISOString(),
          outcome: i % 5 ? 'imported' : 'unchanged',
        },
        request,
      ),
    );
  }
  events.push(event('ImportRunCompleted', { runId, counts: { imported: records } }, request));
  return { stream: `import-${runId}`, events };
}

/** Roughly 70 % order events, 25 % contact events, 5 % import events. */
export function* mixedScripts(seed: number, prefix = randomUUID().slice(0, 8)): Generator<StreamScript> {
  const random = seededRandom(seed);
  for (let i = 0; ; i++) {
    const roll = random();
    if (roll < 0.75) yield orderScript(`${prefix}-${i}`, random);
    else if (roll < 0.995) yield contactScript('crm', `${prefix}-${i}`, random);
    else yield importScript(`${prefix}-${i}`, 40);
  }
}
