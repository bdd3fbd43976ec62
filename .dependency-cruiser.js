/**
 * The layer rules of the design, checked on every test run (`npm run arch`).
 * - domain/ is pure: no framework, no adapter, no other layer.
 * - a context library reaches another context only through its public/ folder.
 * - only apps/ choose adapters (libs never import the adapter libraries, except their own tests).
 */
const contexts = ['identity', 'content', 'review', 'publishing', 'extensibility', 'subscriptions'];

module.exports = {
  forbidden: [
    {
      name: 'domain-is-pure',
      comment: 'domain/ holds deciders: no framework, no I/O, no adapter, no application code.',
      severity: 'error',
      from: { path: '^libs/[^/]+/src/domain/' },
      to: {
        pathNot: ['^libs/[^/]+/src/domain/', '^libs/kernel/src/domain/'],
        dependencyTypesNot: ['type-only'],
      },
    },
    {
      name: 'domain-imports-no-packages',
      comment: 'domain/ must not depend on npm packages (Nest, drivers, ...).',
      severity: 'error',
      from: { path: '^libs/[^/]+/src/domain/' },
      to: { dependencyTypes: ['npm', 'npm-dev', 'npm-optional', 'npm-peer', 'core'] },
    },
    ...contexts.map((context) => ({
      name: `only-public-of-${context}`,
      comment: `other code reaches the ${context} context only through libs/${context}/src/public/ or its module.`,
      severity: 'error',
      from: { path: '^libs/', pathNot: `^libs/${context}/` },
      to: { path: `^libs/${context}/src/`, pathNot: `^libs/${context}/src/(public/|index\\.ts$)` },
    })),
    {
      name: 'libs-do-not-choose-adapters',
      comment: 'adapters are chosen by apps/ only; context libraries see ports.',
      severity: 'error',
      from: {
        path: '^libs/',
        pathNot: ['^libs/(event-store|read-store|search-index|key-store|blob-store|fetcher)/', '\\.spec\\.ts$'],
      },
      to: { path: '^libs/(event-store|read-store|search-index|key-store|blob-store|fetcher)/' },
    },
    {
      name: 'kernel-knows-no-context',
      severity: 'error',
      from: { path: '^libs/kernel/' },
      to: { path: `^libs/(${contexts.join('|')})/` },
    },
    {
      name: 'no-circular',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^dist/|\\.spec\\.ts$|\\.e2e-spec\\.ts$)' },
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'] },
  },
};
