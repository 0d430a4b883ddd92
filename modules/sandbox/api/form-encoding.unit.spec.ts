import { decodeForm } from './form-encoding';

describe('decodeForm', () => {
  it('reads bracketed keys as nested objects and indexed keys as arrays, as stripe-node encodes them', () => {
    const body = 'amount=4200&metadata[order_id]=481&metadata[note]=a%20b&payment_method_types[0]=card&payment_method_types[1]=sepa';

    expect(decodeForm(body)).toEqual({
      amount: '4200',
      metadata: { order_id: '481', note: 'a b' },
      payment_method_types: ['card', 'sepa'],
    });
  });

  it('accepts percent-encoded brackets and empty brackets', () => {
    expect(decodeForm('metadata%5Border_id%5D=7&expand[]=a&expand[]=b')).toEqual({ metadata: { order_id: '7' }, expand: ['a', 'b'] });
  });

  it('ignores keys that would reach the prototype', () => {
    const decoded = decodeForm('__proto__[polluted]=yes&metadata[constructor]=x&amount=1');

    expect(decoded).toEqual({ amount: '1' });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
