/** The hexagon's dependency rule (see docs/ARCHITECTURE.md, "The dependency rule"). */

/** A forbidden dependency, an error: its name, why (null where the name says it), and the from and to it matches. */
const rule = (name, comment, from, to) => ({ name, ...(comment === null ? {} : { comment }), severity: 'error', from, to });

module.exports = {
  forbidden: [
    rule(
      'domain-is-pure',
      'domain/ imports nothing of ours outside domain/',
      { path: '^domain/' },
      { path: '^(application|ports|adapters|composition)/' },
    ),
    rule('domain-no-frameworks', null, { path: '^domain/' }, { dependencyTypes: ['npm', 'npm-dev', 'npm-optional', 'npm-peer'] }),
    rule(
      'ports-only-domain',
      'ports/ may name domain types, nothing else of ours',
      { path: '^ports/' },
      { path: '^(application|adapters|composition)/' },
    ),
    rule('application-only-domain-and-ports', null, { path: '^application/' }, { path: '^(adapters|composition)/' }),
    rule(
      'adapters-only-domain-and-ports',
      'adapters never reach into application/ or composition/',
      { path: '^adapters/' },
      { path: '^(application|composition)/' },
    ),
    rule(
      'adapter-families-apart',
      "an adapter family never reaches into another family's internals",
      { path: '^adapters/([^/]+)/', pathNot: '^adapters/chrome/client/' },
      { path: '^adapters/([^/]+)/', pathNot: '^adapters/($1|shared)/' },
    ),
    rule(
      'chrome-page-uses-the-public-client',
      "the chrome's page is a client like any other: besides its own files it may use the client helpers",
      { path: '^adapters/chrome/client/' },
      { path: '^adapters/', pathNot: '^adapters/(chrome|shared|client)/' },
    ),
    rule(
      'client-is-browser-safe',
      'porter-runtime/client and porter-runtime/react run in browsers: no Node built-ins, nothing of the server',
      { path: '^(adapters/client/|composition/(client|react)\\.ts$)' },
      { path: '^(domain|application|ports|composition|adapters/(?!client/))' },
    ),
    rule(
      'react-server-render-is-the-react-entry',
      'the server-render entry is porter-runtime/react with three names of its own',
      { path: '^composition/react-server-render\\.ts$' },
      { path: '^(domain|application|ports|composition/(?!react\\.ts$)|adapters/(?!client/))' },
    ),
    rule(
      'client-no-node-builtins',
      null,
      { path: '^(adapters/client/|composition/(client|react|react-server-render)\\.ts$)' },
      { dependencyTypes: ['core'] },
    ),
    rule(
      'client-only-the-ai-sdk',
      'the packages porter-runtime/client needs are `ai` and, for the typed wire client, `openapi-fetch`',
      { path: '^(adapters/client/|composition/client\\.ts$)', pathNot: '^adapters/client/react/' },
      {
        dependencyTypes: ['npm', 'npm-dev', 'npm-optional', 'npm-peer', 'npm-no-pkg', 'npm-unknown'],
        pathNot: 'node_modules/(ai|openapi-fetch|openapi-typescript-helpers)/',
      },
    ),
    rule(
      'client-knows-no-react',
      'porter-runtime/client works without React: only porter-runtime/react reaches its React parts',
      { path: '^(adapters/client/|composition/client\\.ts$)', pathNot: '^adapters/client/react/' },
      { path: '^adapters/client/react/' },
    ),
    rule(
      'react-only-react-and-the-ai-sdk',
      'porter-runtime/react needs `ai` and its optional peers `react` and `@ai-sdk/react`, nothing else',
      { path: '^(adapters/client/react/|composition/react(-server-render)?\\.ts$)' },
      {
        dependencyTypes: ['npm', 'npm-dev', 'npm-optional', 'npm-peer', 'npm-no-pkg', 'npm-unknown'],
        pathNot: 'node_modules/(ai|react|@ai-sdk/react)/',
      },
    ),
    rule(
      'only-composition-knows-inversify',
      null,
      { pathNot: '^(composition|test|bench)/' },
      { path: 'node_modules/(inversify|@inversifyjs)/' },
    ),
    rule(
      'core-knows-no-frameworks',
      'the core never imports a web framework, an ORM or the DI container',
      { path: '^(domain|application|ports)/' },
      { path: 'node_modules/(koa|@koa|@mikro-orm|inversify|knex|pg|libsql|@libsql)/' },
    ),
    rule(
      'composition-knows-no-web-framework',
      'composition/ only wires: HTTP handling lives in adapters/ (framework-free handlers, each framework reached through its glue in adapters/http)',
      { path: '^composition/' },
      { path: 'node_modules/(koa|koa-[^/]+|@koa|express|hono|@hono|fastify|@fastify|@hapi|h3|next)/' },
    ),
    rule('no-circular', null, { path: '^(domain|application|ports)/' }, { circular: true }),
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default', 'types'] },
  },
};
