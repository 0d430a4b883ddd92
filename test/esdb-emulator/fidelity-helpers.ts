/**
 * Shared by the fidelity specs: every behaviour is observed through the real `@eventstore/db-client`,
 * on both append paths — BatchAppend (what a real 21.10+ server makes the client use) and Append (what
 * the client falls back to when BatchAppend is not advertised).
 */
import { randomUUID } from 'node:crypto';
import { EventStoreDBClient, jsonEvent, type JSONEventType, type ResolvedEvent } from '@eventstore/db-client';
import { startEsdbEmulator, type EsdbEmulator, type EsdbEmulatorOptions } from '.';

export const APPEND_PATHS = [
  { path: 'BatchAppend', batchAppend: true },
  { path: 'Append', batchAppend: false },
] as const;

export interface Connected {
  emulator: EsdbEmulator;
  client: EventStoreDBClient;
}

/** Starts an emulator in `beforeAll` and connects the real client; both are closed in `afterAll`. */
export function connectedEmulator(options: EsdbEmulatorOptions = {}): Connected {
  const connected = {} as Connected;
  beforeAll(async () => {
    connected.emulator = await startEsdbEmulator(options);
    connected.client = EventStoreDBClient.connectionString(connected.emulator.connectionString);
  });
  afterAll(async () => {
    await connected.client.dispose();
    await connected.emulator.close();
  });
  return connected;
}

export const streamName = (category = 'order') => `${category}-${randomUUID()}`;

export function event(id: string = randomUUID(), type = 'SomethingHappened') {
  return jsonEvent<JSONEventType>({ id, type, data: { at: Date.now() } });
}

export async function readStream(client: EventStoreDBClient, stream: string): Promise<ResolvedEvent[]> {
  const events: ResolvedEvent[] = [];
  for await (const resolved of client.readStream(stream)) events.push(resolved);
  return events;
}

export async function readAllEvents(client: EventStoreDBClient): Promise<ResolvedEvent[]> {
  const events: ResolvedEvent[] = [];
  for await (const resolved of client.readAll()) events.push(resolved);
  return events;
}

export async function failureOf(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a failure, but it succeeded');
}
