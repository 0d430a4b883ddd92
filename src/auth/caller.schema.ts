/** GET /v1/auth/caller's answer in the OpenAPI document (Caller, callers.ts). */
import type { SchemaObject } from '@nestjs/swagger';
import { ROLES } from '../config/bearer-tokens';

export const CALLER_SCHEMA: SchemaObject = {
  type: 'object',
  required: ['role', 'tokenId'],
  properties: {
    role: { type: 'string', enum: [...ROLES] },
    tokenId: { type: 'string', description: 'Which token of that role (a short hash, never the token), as events record it.' },
  },
};
