/**
 * Request bodies are checked by class-validator (src/errors/validation-pipe.ts); their schemas in the
 * document are read from the same decorators, so the document cannot promise what validation refuses
 * and features write no `@ApiProperty` beside their `@IsInt`. Only the rules below are translated;
 * a body whose rules go further still validates them, the document just says less. What depends on the
 * configuration (the currencies a shop charges in) a feature states with @ConfiguredSchema
 * (configured-schema.ts), merged into each api's document.
 */
import type { INestApplication, Type } from '@nestjs/common';
import { ApiProperty, type ApiPropertyOptions, type OpenAPIObject } from '@nestjs/swagger';
import { getMetadataStorage } from 'class-validator';
import { IDEM_CONFIG, type IdemConfig } from '../config/config';
import { hasConfiguredSchema, withConfiguredSchemas } from './configured-schema';
import { routeHandlers } from './route-handlers';

type Rule = { name?: string; constraints?: unknown[] };

const TRANSLATIONS: Record<string, (constraints: unknown[]) => Record<string, unknown>> = {
  isInt: () => ({ type: 'integer' }),
  isNumber: () => ({ type: 'number' }),
  isString: () => ({ type: 'string' }),
  isBoolean: () => ({ type: 'boolean' }),
  min: ([minimum]) => ({ minimum }),
  max: ([maximum]) => ({ maximum }),
  minLength: ([minLength]) => ({ minLength }),
  maxLength: ([maxLength]) => ({ maxLength }),
  matches: ([pattern]) => ({ pattern: pattern instanceof RegExp ? pattern.source : String(pattern) }),
  isIn: ([values]) => ({ enum: values }),
  isOptional: () => ({ required: false }),
};

/** Body classes are shared by every api a process builds: describe each once. */
const described = new WeakSet<Type<unknown>>();

/** Describes the app's body classes from their rules; returns what merges their configured schemas into its document. */
export function documentValidatedBodies(app: INestApplication): (document: OpenAPIObject) => OpenAPIObject {
  const configuredBodies = new Set<Type<unknown>>();
  for (const { controller, methodName } of routeHandlers(app)) {
    const parameterTypes = (Reflect.getMetadata('design:paramtypes', controller.prototype, methodName) ?? []) as unknown[];
    for (const type of parameterTypes) {
      if (typeof type !== 'function') continue;
      describeProperties(type as Type<unknown>);
      if (hasConfiguredSchema(type as Type<unknown>)) configuredBodies.add(type as Type<unknown>);
    }
  }
  if (!configuredBodies.size) return (document) => document;
  const config = app.get<symbol, IdemConfig>(IDEM_CONFIG, { strict: false });
  return (document) => withConfiguredSchemas(document, configuredBodies, config);
}

function describeProperties(type: Type<unknown>): void {
  if (described.has(type)) return;
  described.add(type);
  const rulesByProperty = new Map<string, Rule[]>();
  for (const rule of getMetadataStorage().getTargetValidationMetadatas(type, '', true, false)) {
    rulesByProperty.set(rule.propertyName, [...(rulesByProperty.get(rule.propertyName) ?? []), rule]);
  }
  for (const [property, rules] of rulesByProperty) {
    const schema = Object.assign({ required: true }, ...rules.map((rule) => TRANSLATIONS[rule.name ?? '']?.(rule.constraints ?? []) ?? {}));
    ApiProperty(schema as ApiPropertyOptions)(type.prototype as object, property);
  }
}
