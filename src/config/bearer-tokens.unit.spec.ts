import { parseTokens } from './bearer-tokens';

describe('parseTokens (IDEM_TOKENS)', () => {
  it('keeps everything after the first "=" as the token, so base64 padding is part of it', () => {
    const tokens = parseTokens('support=c3VwcG9ydC10b2tlbi0xMjM0NTY=, auditor=YXVkaXRvci10b2tlbi0xMjM0==');
    expect([...tokens]).toEqual([
      ['c3VwcG9ydC10b2tlbi0xMjM0NTY=', 'support'],
      ['YXVkaXRvci10b2tlbi0xMjM0==', 'auditor'],
    ]);
  });

  it('refuses an entry without a token, a short token, an unknown role and one token for two roles', () => {
    expect(() => parseTokens('support')).toThrow('token for support must be at least 16 characters');
    expect(() => parseTokens('support=short')).toThrow('at least 16 characters');
    expect(() => parseTokens('cashier=0123456789abcdef')).toThrow('unknown role "cashier"');
    expect(() => parseTokens('support=0123456789abcdef,auditor=0123456789abcdef')).toThrow('one token two roles (support and auditor)');
  });
});
