/**
 * Every route refuses the query parameters it does not read: 400 `REQUEST.INVALID` naming each, in the
 * words the validation pipe uses where a route takes its query as one class (`@Query() query:
 * JobPageQuery`, whitelisted). A route that names its parameters one by one (`@Query('waitMs')`) knows
 * those and no other: a mistyped `?waitMS=` was dropped silently and the call answered as if it were
 * not there. A route that takes its whole query (a class, or a record it checks itself) is left to
 * that check. A global guard registered after BearerTokenGuard, so an unauthenticated call is still told
 * 401 first; a guard, not an interceptor, because Nest then keeps its fast path without RxJS for every
 * request (as an interceptor it cost the duplicate replays of bench:charges about a sixth).
 */
import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import { AppError } from './app-error';

/** The names a handler reads one by one, or `whole` when it takes the query as one value. */
type KnownQuery = ReadonlySet<string> | 'whole';

@Injectable()
export class KnownQueryParametersGuard implements CanActivate {
  private readonly knownByHandler = new WeakMap<object, KnownQuery>();

  canActivate(context: ExecutionContext): boolean {
    if (context.getType() !== 'http') return true;
    const known = this.knownQueryOf(context);
    if (known !== 'whole') {
      const query = context.switchToHttp().getRequest<{ query?: Record<string, unknown> }>().query ?? {};
      const unknown = Object.keys(query).filter((name) => !known.has(name));
      if (unknown.length) {
        throw new AppError('validation', 'REQUEST.INVALID', 'The request is invalid', {
          errors: unknown.map((field) => ({ field, message: `property ${field} should not exist` })),
        });
      }
    }
    return true;
  }

  private knownQueryOf(context: ExecutionContext): KnownQuery {
    const handler = context.getHandler();
    let known = this.knownByHandler.get(handler);
    if (!known) {
      const args = (Reflect.getMetadata(ROUTE_ARGS_METADATA, context.getClass(), handler.name) ?? {}) as Record<string, { data?: unknown }>;
      const queryArgs = Object.entries(args)
        .filter(([key]) => key.startsWith(`${RouteParamtypes.QUERY}:`))
        .map(([, arg]) => arg.data);
      known = queryArgs.some((name) => typeof name !== 'string') ? 'whole' : new Set(queryArgs as string[]);
      this.knownByHandler.set(handler, known);
    }
    return known;
  }
}
