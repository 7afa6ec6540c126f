/** The hexagon's dependency rule (see ../shared/design/ARCHITECTURE.md). */
module.exports = {
  forbidden: [
    {
      name: 'domain-is-pure',
      comment: 'domain/ imports nothing of ours outside domain/',
      severity: 'error',
      from: { path: '^domain/' },
      to: { path: '^(application|ports|adapters|composition)/' },
    },
    {
      name: 'domain-no-frameworks',
      severity: 'error',
      from: { path: '^domain/' },
      to: { dependencyTypes: ['npm', 'npm-dev', 'npm-optional', 'npm-peer'] },
    },
    {
      name: 'ports-only-domain',
      comment: 'ports/ may name domain types, nothing else of ours',
      severity: 'error',
      from: { path: '^ports/' },
      to: { path: '^(application|adapters|composition)/' },
    },
    {
      name: 'application-only-domain-and-ports',
      severity: 'error',
      from: { path: '^application/' },
      to: { path: '^(adapters|composition)/' },
    },
    {
      name: 'adapters-only-domain-and-ports',
      comment: 'adapters never reach into application/ or composition/',
      severity: 'error',
      from: { path: '^adapters/' },
      to: { path: '^(application|composition)/' },
    },
    {
      name: 'adapter-families-apart',
      comment: 'an adapter family never reaches into another family\'s internals',
      severity: 'error',
      from: { path: '^adapters/([^/]+)/' },
      to: { path: '^adapters/([^/]+)/', pathNot: '^adapters/($1|shared)/' },
    },
    {
      name: 'only-composition-knows-inversify',
      severity: 'error',
      from: { pathNot: '^(composition|test|bench)/' },
      to: { path: 'node_modules/(inversify|@inversifyjs)/' },
    },
    {
      name: 'core-knows-no-frameworks',
      comment: 'the core never imports a web framework, an ORM or the DI container',
      severity: 'error',
      from: { path: '^(domain|application|ports)/' },
      to: { path: 'node_modules/(koa|@koa|@mikro-orm|inversify|knex|pg|libsql|@libsql)/' },
    },
    {
      name: 'no-circular',
      severity: 'error',
      from: { path: '^(domain|application|ports)/' },
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default', 'types'] },
  },
};
