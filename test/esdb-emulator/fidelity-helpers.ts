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

/**
 * `npm run test:esdb-fidelity` with EVENTSTORE_CONNECTION_STRING set runs every spec here against that
 * server instead: the rows are the same, the server is the judge. A row that needs one of the
 * emulator's controls (stop, delay, node state, stats, a server-line switch) fails there with a message
 * saying so, rather than passing on a server that cannot be steered.
 */
const realServer = process.env.EVENTSTORE_CONNECTION_STRING;

const controlsUnavailable = new Proxy({} as EsdbEmulator, {
  get(_target, control) {
    throw new Error(`This row uses the emulator's ${String(control)}; it cannot run against the real server at ${realServer}`);
  },
});

/** Starts an emulator in `beforeAll` and connects the real client; both are closed in `afterAll`. */
export function connectedEmulator(options: EsdbEmulatorOptions = {}): Connected {
  const connected = {} as Connected;
  beforeAll(async () => {
    connected.emulator = realServer ? controlsUnavailable : await startEsdbEmulator(options);
    connected.client = EventStoreDBClient.connectionString(realServer ?? connected.emulator.connectionString);
  });
  afterAll(async () => {
    await connected.client.dispose();
    if (!realServer) await connected.emulator.close();
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

/** Resolves once `condition` holds, checking it every few milliseconds: waits for a state, never for a time. */
export async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 5));
}
