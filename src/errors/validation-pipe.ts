/**
 * Request validation with class-validator: unknown fields are refused, types are not coerced, and
 * every problem is reported per field in the problem+json `errors` array.
 */
import { type ArgumentMetadata, ValidationPipe, type ValidationError } from '@nestjs/common';
import { getMetadataStorage, IS_OPTIONAL, validateSync, type ValidatorOptions } from 'class-validator';
import { AppError, type FieldProblem } from './app-error';
import { isJsonObject, notAJsonObject } from './json-object-body';
import { isPlainBody } from './plain-body';

/** The rules both paths apply: unknown fields refused, only decorated classes validated. */
const RULES = { whitelist: true, forbidNonWhitelisted: true, forbidUnknownValues: true } as const;
const VALIDATOR_OPTIONS: ValidatorOptions = { ...RULES, validationError: { target: false, value: false } };

/**
 * Nest's ValidationPipe, with a short path for `@PlainBody()` classes (the hot `POST …/charge`): a
 * flat JSON object is copied onto the class's prototype and checked by class-validator's synchronous
 * validator with the same options — no class-transformer pass, no promise per rule. Anything unusual
 * (arrays, nested values, nil, prototype keys) takes Nest's full path, so odd input is answered
 * exactly as before.
 */
class IdemValidationPipe extends ValidationPipe {
  override transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    const metatype = metadata.metatype;
    // Validated as an object, an array or a string would be told that every field is missing.
    if (metadata.type === 'body' && metatype && this.toValidate(metadata) && !isJsonObject(value))
      return Promise.reject(notAJsonObject(shapeOf(metatype)));
    if (metadata.type !== 'body' || !isPlainBody(metatype) || !isFlatJsonObject(value)) return super.transform(value, metadata);
    // A spread copies own keys as data properties, so it cannot reach a prototype setter.
    const entity = Object.setPrototypeOf({ ...value }, metatype.prototype) as object;
    const errors = validateSync(entity, VALIDATOR_OPTIONS);
    if (errors.length) return Promise.reject(invalidRequest(errors));
    return Promise.resolve(entity);
  }
}

export function createValidationPipe(): ValidationPipe {
  return new IdemValidationPipe({
    ...RULES,
    transform: true,
    transformOptions: { enableImplicitConversion: false },
    exceptionFactory: invalidRequest,
  });
}

function invalidRequest(errors: ValidationError[]): AppError {
  return new AppError('validation', 'REQUEST.INVALID', 'The request is invalid', { errors: flatten(errors) });
}

/** The fields a body class validates, as `{amount, currency, description?}` (optional ones marked). */
function shapeOf(metatype: abstract new (...args: never[]) => unknown): string {
  const rules = getMetadataStorage().getTargetValidationMetadatas(metatype, '', true, false);
  const optional = new Set(rules.filter((rule) => rule.name === IS_OPTIONAL).map((rule) => rule.propertyName));
  const fields = [...new Set(rules.map((rule) => rule.propertyName))].map((field) => (optional.has(field) ? `${field}?` : field));
  return `{${fields.join(', ')}}`;
}

/** A JSON object whose values are all primitives, with no key that names a prototype. */
function isFlatJsonObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Object.getPrototypeOf(value) !== Object.prototype) return false;
  for (const key in value) {
    if (key === '__proto__' || key === 'constructor' || key === 'prototype') return false;
    const field = (value as Record<string, unknown>)[key];
    if (typeof field === 'object' && field !== null) return false;
  }
  return true;
}

function flatten(errors: ValidationError[], parent = ''): FieldProblem[] {
  return errors.flatMap((error) => {
    const field = parent ? `${parent}.${error.property}` : error.property;
    const own = problemsOf(error.constraints ?? {}).map((message) => ({ field, message }));
    return [...own, ...flatten(error.children ?? [], field)];
  });
}

/**
 * A field that is missing, or of the wrong type, has that one problem: its other rules can only restate it
 * in words that contradict each other (a string amount is not "at most 99999999" and "at least 1" at once).
 */
const FIRST_PROBLEMS = ['isDefined', 'isInt', 'isNumber', 'isString', 'isBoolean'];

function problemsOf(constraints: Record<string, string>): string[] {
  const first = FIRST_PROBLEMS.find((name) => name in constraints);
  return first ? [constraints[first]] : Object.values(constraints);
}
