/**
 * Marks a request-body class whose fields are all primitives (no nested classes, no `@Type`), so
 * class-transformer has nothing to do for it: the validation pipe then validates a shallow copy of the
 * parsed JSON with class-validator directly (see validation-pipe.ts). Only an opt-in, because a body
 * with nested objects needs class-transformer to build the nested instances class-validator checks.
 */
const plainBodies = new WeakSet<object>();

export const PlainBody = (): ClassDecorator => (target) => {
  plainBodies.add(target);
};

export const isPlainBody = (metatype: unknown): metatype is new () => object => typeof metatype === 'function' && plainBodies.has(metatype);
