/**
 * `node -r ./bench/lib/register.js some.ts`: compiles TypeScript on require with @swc/core
 * (type-stripping only, no type check: `npm run typecheck` does that). CommonJS output, source maps
 * inline so stack traces point at the .ts lines. Child processes started by bench/lib/child.ts
 * inherit the hook through execArgv.
 */
'use strict';
const { readFileSync } = require('node:fs');
const { transformSync } = require('@swc/core');

const options = (filename) => ({
  filename,
  sourceMaps: 'inline',
  jsc: {
    parser: { syntax: 'typescript', decorators: true },
    transform: { legacyDecorator: true, decoratorMetadata: true },
    target: 'es2022',
  },
  module: { type: 'commonjs' },
});

require.extensions['.ts'] = function compileTs(module, filename) {
  const { code } = transformSync(readFileSync(filename, 'utf8'), options(filename));
  module._compile(code, filename);
};
