import { unstorableText } from './storable-text';

describe('unstorableText', () => {
  it.each([
    ['plain text', 'Order 481: two books'],
    ['a whole surrogate pair', 'books 😀 and more'],
    ['the six characters "\\u0000" as text', 'a \\u0000 b'],
  ])('lets %s through', (_label, text) => {
    expect(unstorableText(text)).toBeUndefined();
  });

  it.each([
    ['a NUL', 'a\u0000b', /U\+0000 \(NUL\)/],
    ['a high surrogate at the end', 'ab\ud83d', /lone UTF-16 surrogate/],
    ['a high surrogate before another high one', '\ud83d\ud83d\ude00', /lone UTF-16 surrogate/],
    ['a low surrogate at the start', '\ude00ab', /lone UTF-16 surrogate/],
  ])('says why %s cannot be stored', (_label, text, reason) => {
    expect(unstorableText(text)).toMatch(reason);
  });
});
