import type { FormValue } from './form-encoding';
import { invalidRequest, type StripeErrorResponse } from './stripe-errors';

/**
 * Where the sandbox's string limits come from: Stripe's OpenAPI spec, `openapi/spec3.json` of
 * github.com/stripe/openapi at commit e0123a38b40c8d840b4c0469ac0ee1650b6bfea3 (2022-04-12, info.version
 * 2020-08-27; the newest copy of the whole file this machine's mirror holds), read parameter by parameter.
 */
export const SPEC = 'spec3.json (stripe/openapi@e0123a38)';

/**
 * A JSON Schema `maxLength` counts characters, "as defined by RFC 8259" (JSON Schema Validation, §6.3.1):
 * code points, not the UTF-16 units of a JS string's `length`. An emoji is one character.
 */
export function characterCount(value: string): number {
  return [...value].length;
}

/**
 * Stripe's refusal of a string longer than its parameter's `maxLength`, worded as Stripe words it in
 * captured answers: "Invalid string: Lottery Re...iting line; must be at most 40 characters"
 * (github.com/polarsource/polar/issues/5429, a coupon name, 2025) and "Invalid string:
 * nnnnnnnnnn...nnnnnnnnnn; must be at most 30 characters" (dev.classmethod.jp, "Stripeのinvoiceで…文字数",
 * 2024): the value's first and last ten characters around "...". Neither capture shows the body's `code`,
 * and stripe-node 23.1.0's list of error codes has none for a length, so none is sent (not
 * `parameter_invalid_string_length`: Stripe has no such code); `param` names the parameter, as Stripe's
 * other parameter errors do (docs.stripe.com/api/errors: "If the error is parameter-specific, the
 * parameter related to the error"). A non-string value is left to the caller's type check.
 */
export function overMaxLength(param: string, value: FormValue | undefined, maxLength: number): StripeErrorResponse | undefined {
  if (typeof value !== 'string' || characterCount(value) <= maxLength) return undefined;
  return invalidRequest(`Invalid string: ${elided(value)}; must be at most ${maxLength} characters`, param);
}

/**
 * The first string of `limits` (parameter name → `maxLength`) that is too long, in the order given. A
 * list parameter (`expand`, `payment_method_types`) is checked item by item; its items' param is
 * `name[i]`, as the form names them.
 */
export function firstOverMaxLength(
  form: Record<string, FormValue | undefined>,
  limits: Record<string, number>,
): StripeErrorResponse | undefined {
  for (const [param, maxLength] of Object.entries(limits)) {
    const value = form[param];
    const items = Array.isArray(value) ? value.map((item, index) => [`${param}[${index}]`, item] as const) : [[param, value] as const];
    for (const [name, item] of items) {
      const problem = overMaxLength(name, item, maxLength);
      if (problem) return problem;
    }
  }
  return undefined;
}

/**
 * Stripe's refusal of a value outside its parameter's `enum`: "Invalid capture_method: must be one of
 * automatic or manual" (github.com/stripe/stripe-java/issues/1314, 2022). No capture of a longer list was
 * found: with three values or more the sandbox separates them with commas and puts "or" before the last.
 */
export function outsideEnum(param: string, value: FormValue | undefined, allowed: readonly string[]): StripeErrorResponse | undefined {
  if (value === undefined || (typeof value === 'string' && allowed.includes(value))) return undefined;
  const choices = allowed.length === 2 ? allowed.join(' or ') : `${allowed.slice(0, -1).join(', ')}, or ${allowed[allowed.length - 1]}`;
  return invalidRequest(`Invalid ${param}: must be one of ${choices}`, param);
}

function elided(value: string): string {
  const characters = [...value];
  if (characters.length <= 20) return value;
  return `${characters.slice(0, 10).join('')}...${characters.slice(-10).join('')}`;
}
