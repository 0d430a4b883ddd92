/**
 * A reactor the test holds inside its batch's transaction: the batch that brings an event `holdsOn`
 * picks waits in `handle` until the test lets it go, as a projection kept busy by a bulk import would
 * (its checkpoint moved, its transaction open, its commit not yet sent).
 */
import type { RecordedEvent } from '../../src/event-store/event-store.port';
import type { Projection } from '../../src/subscriptions/projection';

export interface HeldProjection {
  projection: Projection;
  /** Ids of the events it applied, in their transactions (committed or not). */
  readonly handled: string[];
  /** True from the moment the held batch entered `handle` until it is let go. */
  isHeld(): boolean;
  letGo(): void;
}

export function heldProjection(name: string, holdsOn: (event: RecordedEvent) => boolean): HeldProjection {
  let held = false;
  let letGo!: () => void;
  const released = new Promise<void>((resolve) => (letGo = resolve));
  let wasLetGo = false;
  const handled: string[] = [];
  const projection: Projection = {
    name,
    kind: 'reactor',
    filter: {},
    async handle(events) {
      if (!wasLetGo && events.some(holdsOn)) {
        held = true;
        await released;
        held = false;
      }
      handled.push(...events.map((event) => event.id));
    },
  };
  return {
    projection,
    handled,
    isHeld: () => held,
    letGo: () => {
      wasLetGo = true;
      letGo();
    },
  };
}
