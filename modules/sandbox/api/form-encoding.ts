/**
 * Stripe's v1 API takes `application/x-www-form-urlencoded` bodies with bracketed keys
 * (`metadata[order_id]=481`, `payment_method_types[0]=card`), the qs "indexed" format stripe-node emits.
 */
export type FormValue = string | FormValue[] | { [key: string]: FormValue };
export type FormObject = { [key: string]: FormValue };

const UNSAFE_SEGMENTS = new Set(['__proto__', 'constructor', 'prototype']);

export function decodeForm(body: string): FormObject {
  const root: FormObject = {};
  for (const [rawKey, value] of new URLSearchParams(body)) {
    const path = keyPath(rawKey);
    if (path.length === 0 || path.some((segment) => UNSAFE_SEGMENTS.has(segment))) continue;
    assign(root, path, value);
  }
  return arraysFromIndexedObjects(root) as FormObject;
}

function keyPath(key: string): string[] {
  const match = /^([^[\]]+)((?:\[[^[\]]*\])*)$/.exec(key);
  if (!match) return [key];
  const nested = [...match[2].matchAll(/\[([^[\]]*)\]/g)].map((m) => m[1]);
  return [match[1], ...nested];
}

function assign(target: FormObject, path: string[], value: string): void {
  let node = target;
  for (let i = 0; i < path.length - 1; i++) {
    const segment = path[i] === '' ? String(Object.keys(node).length) : path[i];
    const next = node[segment];
    if (typeof next !== 'object' || next === null) node[segment] = {};
    node = node[segment] as FormObject;
  }
  const last = path[path.length - 1];
  node[last === '' ? String(Object.keys(node).length) : last] = value;
}

/** `{0: 'a', 1: 'b'}` becomes `['a', 'b']`, the way Stripe's parser reads `x[0]=a&x[1]=b`. */
function arraysFromIndexedObjects(value: FormValue): FormValue {
  if (typeof value === 'string' || Array.isArray(value)) return value;
  const keys = Object.keys(value);
  const converted: FormObject = {};
  for (const key of keys) converted[key] = arraysFromIndexedObjects(value[key]);
  const isList = keys.length > 0 && keys.every((key, index) => key === String(index));
  return isList ? keys.map((key) => converted[key]) : converted;
}
