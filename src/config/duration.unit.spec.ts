import { formatDuration, parseDuration } from './duration';

describe('formatDuration', () => {
  it.each([
    [900_000, '15m'],
    [30_000, '30s'],
    [90_000, '90s'],
    [7_200_000, '2h'],
    [86_400_000, '1d'],
    [1_500, '1500ms'],
    [250, '250ms'],
    [0, '0ms'],
  ])('writes %d ms as %s, which parses back to it', (ms, text) => {
    expect(formatDuration(ms)).toBe(text);
    expect(parseDuration(text)).toBe(ms);
  });
});
