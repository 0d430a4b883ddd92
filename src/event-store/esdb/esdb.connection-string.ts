/**
 * Integer settings of an `esdb://` connection string, read as the 6.2.1 client reads them
 * (Client/parseConnectionString.js: keys compared by `toflatCase`, i.e. trimmed, lower-cased, `-` and `_`
 * dropped; values by `parseInt`). A repeated key: the last wins, as `parseSearchParams` spreads each pair over the
 * ones before it.
 */
export function integerSetting(connectionString: string, name: string): number | undefined {
  const wanted = flat(name);
  const query = connectionString.slice(connectionString.indexOf('?') + 1 || connectionString.length);
  let found: number | undefined;
  for (const [key, value] of new URLSearchParams(query)) {
    if (flat(key) !== wanted) continue;
    const parsed = Number.parseInt(value, 10);
    if (Number.isInteger(parsed)) found = parsed;
  }
  return found;
}

function flat(key: string): string {
  return key.trim().toLowerCase().replace(/[_-]/g, '');
}
