/**
 * What every route's roles mean for its documentation, taken from the `@Roles` the guard enforces so
 * the two cannot drift apart: a bearer-token requirement, the roles in the description, and the 401 and
 * 403 answers. Features write no swagger decorator for any of this.
 */
import { HttpStatus, type INestApplication, RequestMethod } from '@nestjs/common';
import { HTTP_CODE_METADATA, METHOD_METADATA } from '@nestjs/common/constants';
import { ApiBearerAuth, ApiOperation, type ApiOperationOptions, ApiResponse, DECORATORS } from '@nestjs/swagger';
import type { Role } from '../config/bearer-tokens';
import { ROLES_KEY } from '../auth/roles';
import { routeHandlers } from './route-handlers';

export const BEARER_SCHEME = 'bearer';

/** Controllers are classes shared by every api a process builds (tests build many): document each handler once. */
const documented = new WeakSet<object>();

export function documentRouteSecurity(app: INestApplication): void {
  for (const { controller, methodName, handler } of routeHandlers(app)) {
    if (documented.has(handler)) continue;
    documented.add(handler);
    const roles = (Reflect.getMetadata(ROLES_KEY, handler) ?? Reflect.getMetadata(ROLES_KEY, controller)) as Role[] | undefined;
    const descriptor = Object.getOwnPropertyDescriptor(controller.prototype, methodName)!;
    const operation = (Reflect.getMetadata(DECORATORS.API_OPERATION, handler) ?? {}) as ApiOperationOptions;
    const access = roles ? `Roles: ${roles.join(', ')}.` : 'No authentication.';
    const description = operation.description ? `${operation.description}\n\n${access}` : access;
    ApiOperation({ ...operation, description })(controller.prototype, methodName, descriptor);
    if (!roles) continue;
    // The explorer adds a route's success answer only when it has no responses of its own; keep it.
    const own = (Reflect.getMetadata(DECORATORS.API_RESPONSE, handler) ?? {}) as Record<string, unknown>;
    if (!Object.keys(own).some((status) => status.startsWith('2'))) {
      ApiResponse({ status: successStatus(handler), description: 'Success.' })(controller.prototype, methodName, descriptor);
    }
    ApiBearerAuth(BEARER_SCHEME)(controller.prototype, methodName, descriptor);
    ApiResponse({ status: 401, description: 'No valid bearer token (AUTH.TOKEN_REQUIRED).' })(controller.prototype, methodName, descriptor);
    ApiResponse({ status: 403, description: `The token's role is not one of: ${roles.join(', ')} (AUTH.ROLE_FORBIDDEN).` })(
      controller.prototype,
      methodName,
      descriptor,
    );
  }
}

/** Nest's own rule: `@HttpCode`, else 201 for POST and 200 for the rest. */
function successStatus(handler: object): number {
  const declared = Reflect.getMetadata(HTTP_CODE_METADATA, handler) as number | undefined;
  if (declared) return declared;
  return Reflect.getMetadata(METHOD_METADATA, handler) === RequestMethod.POST ? HttpStatus.CREATED : HttpStatus.OK;
}
