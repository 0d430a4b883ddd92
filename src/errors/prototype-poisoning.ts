/**
 * The prototype-poisoning keys the api's JSON parser refuses (400 REQUEST.FORBIDDEN_KEY, http-edge.ts):
 * a `__proto__` key, or a `constructor` key whose value holds a `prototype` key, at any depth. JSON.parse
 * makes them plain own properties, harmless until some code merges or copies the object; the api
 * refuses them, so records that reach Idem another way (a file, a CRM page) are held to the same rule.
 */
export function hasPrototypePoisoningKey(value: unknown): boolean {
  const stack: unknown[] = [value];
  while (stack.length) {
    const node = stack.pop();
    if (node === null || typeof node !== 'object') continue;
    if (!Array.isArray(node)) {
      if (Object.hasOwn(node, '__proto__')) return true;
      const constructor: unknown = Object.hasOwn(node, 'constructor') ? (node as { constructor: unknown }).constructor : undefined;
      if (constructor !== null && typeof constructor === 'object' && Object.hasOwn(constructor, 'prototype')) return true;
    }
    for (const child of Array.isArray(node) ? node : Object.values(node))
      if (child !== null && typeof child === 'object') stack.push(child);
  }
  return false;
}
