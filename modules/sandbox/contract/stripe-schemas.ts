/**
 * Validators for what the sandbox answers, built from the schemas of Stripe's published OpenAPI
 * specification vendored beside this file (stripe-openapi-subset.json, whose `_source` says which
 * version and what was left out). OpenAPI 3.0's `nullable` becomes JSON Schema's `null` type, and a
 * `$ref` to a schema not vendored accepts any value: the check is as strict as the vendored part.
 */
import Ajv, { type ValidateFunction } from 'ajv';
import spec from './stripe-openapi-subset.json';

type Schema = { [key: string]: unknown };
const SCHEMAS = spec.components.schemas as Record<string, Schema>;
const REF_PREFIX = '#/components/schemas/';

export type StripeSchemaName = 'payment_intent' | 'error' | 'customer' | 'payment_method' | 'payment_flows_payment_method_list';

export function stripeValidator(name: StripeSchemaName): ValidateFunction {
  const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false });
  const definitions = Object.fromEntries(Object.entries(SCHEMAS).map(([key, schema]) => [key, toJsonSchema(schema)]));
  return ajv.compile({ definitions, $ref: `#/definitions/${name}` });
}

function toJsonSchema(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(toJsonSchema);
  if (typeof node !== 'object' || node === null) return node;
  const schema = node as Schema;
  if (typeof schema.$ref === 'string') {
    const name = schema.$ref.slice(REF_PREFIX.length);
    return name in SCHEMAS ? { $ref: `#/definitions/${name}` } : {};
  }
  const converted: Schema = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'nullable' || key.startsWith('x-') || key === 'format') continue;
    converted[key] = key === 'properties' ? mapValues(value as Schema) : toJsonSchema(value);
  }
  if (schema.nullable !== true) return converted;
  return { anyOf: [converted, { type: 'null' }] };
}

function mapValues(properties: Schema): Schema {
  return Object.fromEntries(Object.entries(properties).map(([key, value]) => [key, toJsonSchema(value)]));
}
