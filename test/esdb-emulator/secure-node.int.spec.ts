/**
 * A secure node (TLS, tls.ts) and what a new server holds, as the server's source has them:
 * credentials.ts (authentication), system-events.ts (the records written at start).
 */
import { existsSync } from 'node:fs';
import { AccessDeniedError, EventStoreDBClient } from '@eventstore/db-client';
import { startEsdbEmulator, type EsdbEmulator } from '.';
import { event, failureOf, readAllEvents, streamName } from './fidelity-helpers';

const admin = { username: 'admin', password: 'changeit' };

async function typesInAll(client: EventStoreDBClient, credentials?: typeof admin) {
  const types: string[] = [];
  for await (const resolved of client.readAll({ credentials })) types.push(`${resolved.event!.streamId}:${resolved.event!.type}`);
  return types;
}

describe('a secure emulator node', () => {
  let emulator: EsdbEmulator;
  let client: EventStoreDBClient;
  beforeAll(async () => {
    emulator = await startEsdbEmulator({ tls: true });
    client = EventStoreDBClient.connectionString(emulator.connectionString);
  });
  afterAll(async () => {
    await client.dispose();
    await emulator.close();
  });

  it('serves TLS with a certificate its generated CA signed, and accepts the default admin and ops users', async () => {
    expect(emulator.connectionString).toContain('tlsCAFile=');
    const byAdmin = await client.appendToStream(streamName(), event(), { credentials: admin });
    const byOps = await client.appendToStream(streamName(), event(), { credentials: { username: 'ops', password: 'changeit' } });
    expect([byAdmin.success, byOps.success]).toEqual([true, true]);
  });

  it('refuses wrong credentials and anonymous stream access with AccessDeniedError', async () => {
    expect(
      await failureOf(client.appendToStream(streamName(), event(), { credentials: { username: 'admin', password: 'nope' } })),
    ).toBeInstanceOf(AccessDeniedError);
    expect(await failureOf(client.appendToStream(streamName(), event()))).toBeInstanceOf(AccessDeniedError);
  });

  // `Streams.BatchAppend.cs` `Receive`: access is checked per request and refused in-band (`Status.AccessDenied`).
  it('refuses each anonymous BatchAppend request in-band, on a call that stays open', async () => {
    const anonymous = EventStoreDBClient.connectionString(emulator.connectionString);
    const before = emulator.stats.batchAppendCalls;
    try {
      for (let i = 0; i < 2; i++) {
        const error = await failureOf(anonymous.appendToStream(streamName(), event()));
        expect(error).toBeInstanceOf(AccessDeniedError);
        expect(error).toMatchObject({ message: '', code: undefined });
      }
      expect(emulator.stats.batchAppendCalls - before).toBe(1);
    } finally {
      await anonymous.dispose();
    }
  });

  it('starts with the users a new server creates in $all', async () => {
    const fresh = await startEsdbEmulator({ tls: true });
    const freshClient = EventStoreDBClient.connectionString(fresh.connectionString);
    try {
      expect(await typesInAll(freshClient, admin)).toEqual([
        '$$$user-admin:$metadata',
        '$user-admin:$UserCreated',
        '$users:$User',
        '$$$user-ops:$metadata',
        '$user-ops:$UserCreated',
        '$users:$User',
      ]);
    } finally {
      await freshClient.dispose();
      await fresh.close();
    }
    // The keys it generated went with it (each run used to leave an esdb-emulator-certs-* folder in /tmp).
    expect(existsSync(fresh.tls!.dir)).toBe(false);
  });
});

describe('an insecure emulator node', () => {
  it('shows nothing in a fresh $all: its $epoch-information record is hidden from $all reads', async () => {
    const emulator = await startEsdbEmulator();
    const client = EventStoreDBClient.connectionString(emulator.connectionString);
    try {
      expect(await readAllEvents(client)).toEqual([]);
    } finally {
      await client.dispose();
      await emulator.close();
    }
  });
});
