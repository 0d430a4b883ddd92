/**
 * Free text a client sends into an event (a charge's description, a review's note) must be text
 * PostgreSQL can hold: no U+0000 (NUL) and no lone UTF-16 surrogate. The stores refuse such an event
 * whole (src/event-store/storable-documents.ts), but by then the answer can only be a 400 about event
 * data; checked here, it is a field problem like any other, before anything is decided or written.
 */
import { ValidateBy, type ValidationOptions } from 'class-validator';

// A high half not followed by a low one, or a low half not preceded by a high one (UTF-16 code units:
// no `u` flag, so a valid pair is two units this pattern does not match).
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Why `value` cannot be stored, or undefined when it can. */
export function unstorableText(value: string): string | undefined {
  if (value.includes('\u0000')) return 'holds the character U+0000 (NUL), which cannot be stored';
  if (LONE_SURROGATE.test(value)) return 'holds a lone UTF-16 surrogate (invalid Unicode), which cannot be stored';
  return undefined;
}

/** class-validator rule: a string without NUL or lone surrogates (other types are left to @IsString). */
export const StorableText = (options?: ValidationOptions): PropertyDecorator =>
  ValidateBy(
    {
      name: 'storableText',
      validator: {
        validate: (value: unknown) => typeof value !== 'string' || unstorableText(value) === undefined,
        defaultMessage: (args) => `${args?.property} ${unstorableText(String(args?.value)) ?? 'cannot be stored'}`,
      },
    },
    options,
  );
