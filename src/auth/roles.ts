import { SetMetadata } from '@nestjs/common';
import type { Role } from '../config/bearer-tokens';

export const ROLES_KEY = 'idem:roles';
export const PUBLIC_KEY = 'idem:public';

/** The roles that may call a route (DESIGN.md §6). */
export const Roles = (...roles: Role[]) => SetMetadata(ROLES_KEY, roles);

/**
 * A route anyone may call without a token, with the reason in the decorator's argument: health and
 * metrics (scraped from inside the network), the provider's webhook (its signature is its
 * authentication), the admin screen's static files (it asks for a token itself). A route with neither
 * this nor `@Roles` is refused (bearer-token.guard.ts): a route forgotten is closed, not open.
 */
export const Public = (why: string) => SetMetadata(PUBLIC_KEY, why);
