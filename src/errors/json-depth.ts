/**
 * How deep a JSON document from outside may nest. JSON.parse takes any depth, but the validators and
 * serialisers after it recurse, and a few thousand levels overflow the stack: the HTTP edge refuses a
 * deeper body (400 REQUEST.TOO_DEEP), a file import rejects a deeper line. No real record nests 64 deep.
 */
export const MAX_JSON_DEPTH = 64;

/** Whether `value` nests objects or arrays deeper than `limit` levels, walked without recursion. */
export function nestedDeeperThan(value: unknown, limit: number): boolean {
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length) {
    const [node, depth] = stack.pop()!;
    if (node === null || typeof node !== 'object') continue;
    if (depth > limit) return true;
    for (const child of Array.isArray(node) ? node : Object.values(node))
      if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
  }
  return false;
}
