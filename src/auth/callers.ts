/**
 * The bearer tokens the service accepts, each as the caller it stands for. The guard and the check before
 * the body is read (access-before-body.ts) look tokens up here, so both accept exactly the same ones.
 */
import { hash } from 'node:crypto';
import type { Role, TokenRoles } from '../config/bearer-tokens';

export interface Caller {
  role: Role;
  /** A non-secret id for audit metadata: the first 8 characters of the token's hash. */
  tokenId: string;
}

export class Callers {
  /** Token → caller, hashed once at start: the tokens are fixed for the life of the process. */
  private readonly byToken: Map<string, Caller>;

  constructor(tokens: TokenRoles) {
    this.byToken = new Map([...tokens].map(([token, role]) => [token, Object.freeze({ role, tokenId: tokenId(token) })]));
  }

  /** The caller an `Authorization` header names, or undefined for no header, another scheme or an unknown token. */
  of(authorization: string | undefined): Caller | undefined {
    // The scheme is case-insensitive (RFC 9110 §11.1); the token is not.
    const match = /^Bearer +(\S+)$/i.exec(authorization ?? '');
    return match ? this.byToken.get(match[1]) : undefined;
  }
}

function tokenId(token: string): string {
  return hash('sha256', token, 'hex').slice(0, 8);
}
