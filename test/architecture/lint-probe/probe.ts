// lint-rules.unit.spec.ts lints its snippets under this file's name (through lintText), so that they get the real
// ESLint config and this folder's one-file TypeScript project. What is written here is never linted by the test.
export {};
