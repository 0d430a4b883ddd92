import { streamCategory } from '../event-store/append-validation';
import type { EventFilter, EventFilterAlternative, RecordedEvent } from '../event-store/event-store.port';

/** Whether `event` passes `filter` (see EventFilter in the port); no filter passes every event. */
export function matchesFilter(filter: EventFilter | undefined, event: RecordedEvent): boolean {
  if (!filter) return true;
  const category = streamCategory(event.stream);
  if (!passes(filter, category, event.type)) return false;
  return !filter.anyOf?.length || filter.anyOf.some((alternative) => passes(alternative, category, event.type));
}

function passes(filter: EventFilterAlternative, category: string, type: string): boolean {
  return (
    (!filter.streamCategories?.length || filter.streamCategories.includes(category)) &&
    (!filter.eventTypes?.length || filter.eventTypes.includes(type))
  );
}

/**
 * Exactly the events any of `filters` wants, as one filter (a lane's shared read): the filters'
 * alternatives, without those another one covers, and with two that agree on their categories (or
 * on their types) merged into one. One alternative left is returned as a plain filter, several as
 * an `anyOf` sorted by their text, so the same wants always give the same filter (log-fan-out.ts
 * compares them). Any member that wants everything, or no member, gives `{}`; so do members whose
 * fields and `anyOf` leave nothing to want (a wider read, never a narrower one).
 */
export function unionFilter(filters: EventFilter[]): EventFilter {
  let alternatives = distinct(filters.flatMap(alternativesOf));
  if (!alternatives.length || alternatives.some((a) => !a.streamCategories && !a.eventTypes)) return {};
  for (let merged: Alternative[] | undefined = alternatives; merged; merged = withOnePairMerged(alternatives)) {
    alternatives = merged.filter((a, i) => !merged!.some((b, j) => j !== i && covers(b, a)));
  }
  return alternatives.length === 1 ? alternatives[0] : { anyOf: alternatives };
}

/** An alternative with each restricting dimension sorted and deduplicated; a missing one restricts nothing. */
type Alternative = EventFilterAlternative;
type Dimension = keyof Alternative;
const DIMENSIONS: Dimension[] = ['streamCategories', 'eventTypes'];

/** `filter` as alternatives that each AND its top-level fields with one of its `anyOf`; none left when nothing passes. */
function alternativesOf(filter: EventFilter): Alternative[] {
  const own = canonical(filter);
  if (!filter.anyOf?.length) return [own];
  return filter.anyOf.map((alternative) => both(own, canonical(alternative))).filter((a): a is Alternative => a !== undefined);
}

function canonical(filter: EventFilterAlternative): Alternative {
  const alternative: Alternative = {};
  for (const d of DIMENSIONS) if (filter[d]?.length) alternative[d] = [...new Set(filter[d])].sort();
  return alternative;
}

/** What passes both `a` and `b`; undefined when nothing does. */
function both(a: Alternative, b: Alternative): Alternative | undefined {
  const result: Alternative = {};
  for (const d of DIMENSIONS) {
    const values = a[d] && b[d] ? a[d].filter((v) => b[d]!.includes(v)) : (a[d] ?? b[d]);
    if (values && !values.length) return undefined;
    if (values) result[d] = values;
  }
  return result;
}

/** Whether every event `b` lets through, `a` lets through. */
function covers(a: Alternative, b: Alternative): boolean {
  return DIMENSIONS.every((d) => !a[d] || (b[d] !== undefined && b[d].every((v) => a[d]!.includes(v))));
}

/**
 * The alternatives with the first two that agree on one dimension replaced by their union (exact:
 * what passes either passes the one), or undefined when no two agree. None covers another here.
 */
function withOnePairMerged(alternatives: Alternative[]): Alternative[] | undefined {
  for (let i = 0; i < alternatives.length; i++) {
    for (let j = i + 1; j < alternatives.length; j++) {
      const [a, b] = [alternatives[i], alternatives[j]];
      const differing = DIMENSIONS.filter((d) => text(a[d]) !== text(b[d]));
      if (differing.length !== 1) continue;
      const d = differing[0];
      const merged: Alternative = { ...a, [d]: [...new Set([...a[d]!, ...b[d]!])].sort() };
      return distinct([merged, ...alternatives.filter((_, k) => k !== i && k !== j)]);
    }
  }
  return undefined;
}

/** Deduplicated and sorted by their text: the order every union is built and returned in. */
function distinct(alternatives: Alternative[]): Alternative[] {
  const byText = new Map(alternatives.map((a) => [text(a), a]));
  return [...byText.keys()].sort().map((t) => byText.get(t)!);
}

const text = (value: unknown) => JSON.stringify(value ?? null);
