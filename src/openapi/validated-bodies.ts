/**
 * Request bodies are checked by class-validator (src/errors/validation-pipe.ts); their schemas in the
 * document are read from the same decorators, so the document cannot promise what validation refuses
 * and features write no `@ApiProperty` beside their `@IsInt`. Only the rules below are translated;
 * a body whose rules go further still validates them, the document just says less.
 */
import type { INestApplication, Type } from '@nestjs/common';
import { ApiProperty, type ApiPropertyOptions } from '@nestjs/swagger';
import { getMetadataStorage } from 'class-validator';
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

export function documentValidatedBodies(app: INestApplication): void {
  for (const { controller, methodName } of routeHandlers(app)) {
    const parameterTypes = (Reflect.getMetadata('design:paramtypes', controller.prototype, methodName) ?? []) as unknown[];
    for (const type of parameterTypes) if (typeof type === 'function') describeProperties(type as Type<unknown>);
  }
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
