/**
 * The import rules of the house (STYLE.md, issue #13): `npm run deps:check`. Paths are relative to the
 * repository root. test/architecture/dependency-rules.unit.spec.ts shows each rule failing on a violation.
 *
 * Spec files (`*.spec.ts`) are test code: tsconfig.build.json leaves them out of the product, and they
 * may drive a feature through the real sandbox provider or a real projection. They are exempt from the
 * kernel and sandbox rules below, not from the rules between features.
 * @type {import('dependency-cruiser').IConfiguration}
 */
const SPEC = '\\.spec\\.ts$';
const COMPOSITION_ROOTS = '^src/(main|worker|cli|app\\.module|features)\\.ts$';

module.exports = {
  forbidden: [
    {
      name: 'kernel-imports-no-feature',
      comment:
        'src/ is the kernel every feature plugs into; it knows no feature and no projection, so that adding one means ' +
        'writing its folder and naming it once in the composition roots (src/main, worker, cli, app.module, features).',
      severity: 'error',
      from: { path: '^src/', pathNot: [COMPOSITION_ROOTS, SPEC] },
      to: { path: '^(modules|projections)/' },
    },
    {
      name: 'features-import-only-public-surfaces',
      comment:
        'A feature reaches another only through its index.ts (its public surface) or its *.events.ts (the event types, ' +
        "a published contract); anything else is that feature's internals, free to change.",
      severity: 'error',
      from: { path: '^modules/([^/]+)/' },
      to: { path: '^modules/', pathNot: ['^modules/$1/', '^modules/[^/]+/index\\.ts$', '^modules/[^/]+/[^/]+\\.events\\.ts$'] },
    },
    {
      name: 'projections-read-only-feature-contracts',
      comment:
        "A projection folds a feature's events into rows and answers in that feature's view shape: it may import the " +
        "feature's index.ts, *.events.ts, *.view.ts and *.payload.ts (a job's name, key and payload, which support_jobs " +
        'names to show the job an event caused), never its use cases.',
      severity: 'error',
      from: { path: '^projections/' },
      to: { path: '^modules/', pathNot: ['^modules/[^/]+/(index|[^/]+\\.events|[^/]+\\.view)\\.ts$', '^modules/[^/]+/.+\\.payload\\.ts$'] },
    },
    {
      name: 'product-never-imports-sandbox',
      comment:
        'The sandbox is a stand-in Stripe and CRM for development and tests; production talks to the real ones. Only the ' +
        'api and worker roots start it in-process (for `npm start` with nothing configured), and tests and benchmarks use it.',
      severity: 'error',
      from: { pathNot: ['^modules/sandbox/', '^test/', '^bench/', '^src/(main|worker)\\.ts$', SPEC] },
      to: { path: '^modules/sandbox/' },
    },
    {
      name: 'sandbox-imports-nothing-of-idem',
      comment:
        "The sandbox plays the outside world (it runs alone as `npm run sandbox`); if it borrowed Idem's code, a bug there " +
        'could agree with itself on both sides of the wire and no test would see it.',
      severity: 'error',
      from: { path: '^modules/sandbox/' },
      to: { path: ['^src/', '^projections/', '^modules/(?!sandbox/)'] },
    },
    {
      name: 'no-circular',
      comment:
        'A cycle of runtime imports makes load order matter (a value is undefined while its module is still loading). ' +
        'Type-only imports are erased by the compiler and cannot cause that, so a cycle through one is allowed.',
      severity: 'error',
      from: {},
      to: { circular: true, dependencyTypesNot: ['type-only'], viaOnly: { dependencyTypesNot: ['type-only'] } },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // `import type` counts for the boundary rules: a type from a feature's internals couples as much as a value.
    tsPreCompilationDeps: true,
  },
};
