/**
 * `idem --version`: the version in Idem's package.json. Looked up from this file's directory because
 * it sits one level higher in the build (dist/src/cli/) than in the sources (src/cli/).
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

export function packageVersion(from = __dirname): string {
  for (let dir = from; ; dir = dirname(dir)) {
    const file = join(dir, 'package.json');
    if (existsSync(file)) return (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version;
    if (dirname(dir) === dir) throw new Error(`no package.json above ${from}`);
  }
}
