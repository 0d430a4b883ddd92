import type { Type } from '@nestjs/common';
import { METHOD_METADATA } from '@nestjs/common/constants';
import { ModulesContainer } from '@nestjs/core';
import type { INestApplication } from '@nestjs/common';

export interface RouteHandler {
  controller: Type<unknown>;
  methodName: string;
  /** The prototype method Nest routes to; route decorators keep their metadata on it. */
  handler: (...args: unknown[]) => unknown;
}

/** Every route handler of every controller the application registered, found the way Nest's router finds them. */
export function routeHandlers(app: INestApplication): RouteHandler[] {
  const controllers = new Set<Type<unknown>>();
  for (const module of app.get(ModulesContainer).values()) {
    for (const wrapper of module.controllers.values()) if (wrapper.metatype) controllers.add(wrapper.metatype as Type<unknown>);
  }
  return [...controllers].flatMap((controller) => {
    const prototype = controller.prototype as Record<string, unknown>;
    return Object.getOwnPropertyNames(prototype)
      .filter((methodName) => methodName !== 'constructor' && typeof prototype[methodName] === 'function')
      .map((methodName) => ({ controller, methodName, handler: prototype[methodName] as RouteHandler['handler'] }))
      .filter(({ handler }) => Reflect.getMetadata(METHOD_METADATA, handler) !== undefined);
  });
}
