/** The four roles of DESIGN.md §6. */
export const ROLES = ['storefront', 'sync', 'support', 'auditor'] as const;
export type Role = (typeof ROLES)[number];
export type TokenRoles = ReadonlyMap<string, Role>;

/**
 * `IDEM_TOKENS="storefront=s3cret,support=an0ther"`: each token grants one role. A token is everything
 * after the first `=` of its entry, so base64 padding (`…==`) stays part of it; it cannot hold a comma.
 */
export function parseTokens(raw: string): TokenRoles {
  const tokens = new Map<string, Role>();
  for (const entry of raw
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)) {
    const separator = entry.indexOf('=');
    const role = separator === -1 ? entry : entry.slice(0, separator);
    const token = separator === -1 ? '' : entry.slice(separator + 1);
    if (!ROLES.includes(role as Role)) throw new Error(`has unknown role "${role}" (roles: ${ROLES.join(', ')})`);
    if (!token || token.length < 16) throw new Error(`token for ${role} must be at least 16 characters`);
    const granted = tokens.get(token);
    if (granted && granted !== role) throw new Error(`gives one token two roles (${granted} and ${role}); each token grants one role`);
    tokens.set(token, role as Role);
  }
  if (tokens.size === 0) throw new Error('must list at least one role=token pair');
  return tokens;
}
