/**
 * What a body property's schema says beyond its validation rules when that depends on the configuration
 * the api runs with: e.g. a charge's currency, which a feature accepts only among the configured ones
 * although its rule (`@IsIn`) names every code the runtime knows. The feature states it beside the
 * property; the document each api serves merges it over what validated-bodies.ts read from the rules,
 * so the kernel names no feature and the document says what the running service accepts.
 */
import type { Type } from '@nestjs/common';
import type { OpenAPIObject } from '@nestjs/swagger';
import type { IdemConfig } from '../config/config';

type SchemaOf = (config: IdemConfig) => Record<string, unknown>;

const configured = new WeakMap<object, Map<string, SchemaOf>>();

/** The property's schema, from the configuration, over what its validation rules give (e.g. `enum`, `minimum`, `description`). */
export const ConfiguredSchema =
  (schemaOf: SchemaOf): PropertyDecorator =>
  (prototype, property) => {
    const properties = configured.get(prototype) ?? new Map<string, SchemaOf>();
    properties.set(String(property), schemaOf);
    configured.set(prototype, properties);
  };

export const hasConfiguredSchema = (type: Type<unknown>): boolean => configured.has(type.prototype as object);

/** The document with the configured schemas of these body classes merged in (the components are named by class). */
export function withConfiguredSchemas(document: OpenAPIObject, bodies: Iterable<Type<unknown>>, config: IdemConfig): OpenAPIObject {
  for (const body of bodies) {
    const schema = document.components?.schemas?.[body.name] as { properties?: Record<string, object> } | undefined;
    for (const [property, schemaOf] of configured.get(body.prototype as object) ?? []) {
      if (schema?.properties?.[property]) schema.properties[property] = { ...schema.properties[property], ...schemaOf(config) };
    }
  }
  return document;
}
