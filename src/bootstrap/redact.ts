/** A URL's password masked; anything else (not a URL) as it is. What the banner and start-up errors print. */
export function redact(value: string): string {
  if (!URL.canParse(value)) return value;
  const url = new URL(value);
  if (!url.password) return value;
  url.password = '***';
  return url.toString();
}
