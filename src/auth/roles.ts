import { SetMetadata } from '@nestjs/common';
import type { Role } from '../config/bearer-tokens';

export const ROLES_KEY = 'idem:roles';

/** The roles that may call a route (DESIGN.md §6). Routes without it are public (health, metrics). */
export const Roles = (...roles: Role[]) => SetMetadata(ROLES_KEY, roles);
