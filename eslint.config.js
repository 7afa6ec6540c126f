import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import prettier from 'eslint-config-prettier';

/**
 * The driven ports of ports/ (and the application's own UsageMeter) a use case is given. The core
 * never holds an absent one: where a deployment has none, it is given the port's null object
 * (NoModel, NoTelemetry, NoUsageMeter, NoInstanceLiveness…). A new port goes on this list.
 */
const PORTS = [
  'AppArchive',
  'AppGenerator',
  'AppScaffold',
  'AuditLog',
  'AuditSink',
  'BackgroundScheduler',
  'BlobStore',
  'ClientMetadataDocuments',
  'Clock',
  'ConnectionBroker',
  'CronCalendar',
  'DoorBearerVerifier',
  'DoorSecrets',
  'DoorSessionRegistry',
  'Egress',
  'Embedder',
  'FeedSet',
  'FileBlobs',
  'HostApi',
  'Ids',
  'InstanceLiveness',
  'Logger',
  'MediaSniffer',
  'Model',
  'PinCatalog',
  'RecordSet',
  'RunDispatcher',
  'Sandbox',
  'SecretBox',
  'Store',
  'Telemetry',
  'TextExtractor',
  'TextIndex',
  'ToolRegistry',
  'UsageMeter',
  'VectorIndex',
  'VectorIndexes',
  'WakeUps',
  'WebhookDispatcher',
  'WebhookSender',
  'WebhookVerifier',
];
const PORT = `TSTypeReference[typeName.name=/^(${PORTS.join('|')})$/]`;
/** A use case's dependency object: `<Class>Deps` (and what a generation is paid with). */
const DEPS = 'TSInterfaceDeclaration[id.name=/(Deps|Payment)$/]';
/** A constructor's parameter, plain or a parameter property. */
const PARAM = "MethodDefinition[kind='constructor'] > FunctionExpression > :matches(Identifier, TSParameterProperty)";
const OPTIONAL_PARAM =
  "MethodDefinition[kind='constructor'] > FunctionExpression > :matches(Identifier[optional=true], TSParameterProperty[parameter.optional=true])";

/** Conventions of application/: null objects for ports, and a dependency object kept whole. */
const applicationSyntax = [
  {
    selector: `${DEPS} TSPropertySignature[optional=true] ${PORT}`,
    message: 'a port in a dependency object is required: pass its null object (NoUsageMeter, NoTelemetry…) where there is none',
  },
  {
    selector: `${DEPS} TSPropertySignature TSUnionType:has(TSNullKeyword, TSUndefinedKeyword) > ${PORT}`,
    message: 'a port in a dependency object is never null: pass its null object (NoUsageMeter, NoTelemetry…) where there is none',
  },
  {
    selector: `${OPTIONAL_PARAM} ${PORT}`,
    message: 'a port a constructor takes is required: pass its null object (NoUsageMeter, NoTelemetry…) where there is none',
  },
  {
    selector: `${PARAM} TSUnionType:has(TSNullKeyword, TSUndefinedKeyword) > ${PORT}`,
    message: 'a port a constructor takes is never null: pass its null object (NoUsageMeter, NoTelemetry…) where there is none',
  },
  {
    selector: `PropertyDefinition[optional=true] ${PORT}, PropertyDefinition TSUnionType:has(TSNullKeyword, TSUndefinedKeyword) > ${PORT}`,
    message: 'a port a class holds is never absent: hold its null object (NoUsageMeter, NoTelemetry…) where there is none',
  },
  {
    selector:
      "MethodDefinition[kind='constructor'] AssignmentExpression[left.object.type='ThisExpression'][right.type='MemberExpression'][right.object.name=/^(deps|parts|payment)$/]",
    message: 'keep the dependency object (`constructor(private readonly deps: XDeps)`, then `this.deps.x`) instead of copying its fields',
  },
];

// An optional field is left out with `defined` (domain/defined.ts), not with a conditional spread:
// `...defined({ title })` rather than `...(title !== undefined ? { title } : {})` or `...(title && { title })`.
// (A conditional spread of something else, `...(port ? proxyEnvironment(port) : {})`, is not an optional field.)
const spreadOf = (argument) => `:matches(SpreadElement, JSXSpreadAttribute)${argument}`;
const OPTIONAL_FIELDS = 'leave an optional field out with defined() from domain/defined.ts: ...defined({ title })';
const optionalFieldSpreads = [
  "[argument.type='ConditionalExpression'][argument.consequent.type='ObjectExpression'][argument.alternate.type='ObjectExpression'][argument.alternate.properties.length=0]",
  "[argument.type='ConditionalExpression'][argument.alternate.type='ObjectExpression'][argument.consequent.type='ObjectExpression'][argument.consequent.properties.length=0]",
  "[argument.type='LogicalExpression'][argument.operator='&&'][argument.right.type='ObjectExpression']",
].map((argument) => ({ selector: spreadOf(argument), message: OPTIONAL_FIELDS }));
// The server's layers; the browser-safe client (adapters/client/) imports nothing of theirs, domain/ included.
const LAYERS = ['domain/**/*.ts', 'application/**/*.ts', 'ports/**/*.ts', 'adapters/**/*.{ts,tsx}', 'composition/**/*.{ts,tsx}'];
const typedWiring = [
  {
    selector:
      "CallExpression[callee.type='MemberExpression'][callee.property.name=/^(get|getAll|getAsync|getAllAsync)$/][arguments.0.type='MemberExpression'][arguments.0.object.name=/TOKENS$/]",
    message: 'resolve with get/getAll/getOptional from composition/tokens.ts: they check the type the token names',
  },
  {
    selector: "NewExpression[callee.name='ContainerModule']",
    message: 'make modules with porterModule from composition/tokens.ts: its bind checks what is bound against the token',
  },
];

export default tseslint.config(
  {
    ignores: [
      '.dependency-cruiser.cjs',
      'node_modules/**',
      'dist/**',
      '.porter/**',
      'adapters/chrome/dist/**',
      'test/e2e/tmp/**',
      'adapters/client/wire-types.ts',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts', '**/*.tsx'],
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': ['error', { allow: ['warn', 'error'] }],
    },
  },
  {
    // Each later block that sets no-restricted-syntax for these files repeats optionalFieldSpreads:
    // a rule's options are replaced, not merged, by a later block.
    files: LAYERS,
    ignores: ['adapters/client/**'],
    rules: { 'no-restricted-syntax': ['error', ...optionalFieldSpreads] },
  },
  {
    files: ['domain/**/*.ts', 'application/**/*.ts'],
    rules: {
      // The core is given a Clock and Ids (or DoorSecrets for tokens); it never reads the wall clock
      // or mints randomness itself, so a test can hold time still and predict every id.
      'no-restricted-properties': [
        'error',
        { object: 'Date', property: 'now', message: 'the core takes time from a Clock' },
        { object: 'crypto', property: 'randomUUID', message: 'the core mints ids with Ids (tokens with DoorSecrets)' },
      ],
      'no-restricted-syntax': [
        'error',
        { selector: "NewExpression[callee.name='Date'][arguments.length=0]", message: 'the core takes time from a Clock' },
        ...optionalFieldSpreads,
      ],
      'no-restricted-imports': [
        'error',
        {
          paths: ['node:crypto', 'crypto'].map((name) => ({
            name,
            importNames: ['randomUUID', 'randomBytes', 'randomInt', 'getRandomValues'],
            message: 'the core mints ids with Ids (tokens with DoorSecrets)',
          })),
        },
      ],
    },
  },
  {
    // ESLint keeps one no-restricted-syntax list per file: application/ gets the core's, the layers' and its own.
    files: ['application/**/*.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        { selector: "NewExpression[callee.name='Date'][arguments.length=0]", message: 'the core takes time from a Clock' },
        ...applicationSyntax,
        ...optionalFieldSpreads,
      ],
    },
  },
  {
    files: [
      'test/**/*.ts',
      'bench/**/*.ts',
      'composition/dev-host/**/*.ts',
      'composition/cli/**/*.ts',
      'bin/**/*.js',
      'scripts/**/*.ts',
      'examples/**/*.ts',
    ],
    rules: {
      'no-console': 'off',
      '@typescript-eslint/no-unused-expressions': 'off',
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-this-alias': 'off',
    },
  },
  {
    // Typed wiring: resolve and bind through composition/tokens.ts, whose helpers check that a
    // service is what its token names; the container's own get/getAll take any type on faith.
    files: ['test/**/*.ts', 'bench/**/*.ts'],
    rules: { 'no-restricted-syntax': ['error', ...typedWiring] },
  },
  {
    files: ['composition/**/*.ts'],
    ignores: ['composition/tokens.ts'],
    rules: { 'no-restricted-syntax': ['error', ...typedWiring, ...optionalFieldSpreads] },
  },
  {
    files: ['composition/modules/**/*.ts', 'composition/containers/**/*.ts', 'composition/*.ts'],
    ignores: ['composition/tokens.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector:
            "CallExpression[callee.type='MemberExpression'][callee.property.name=/^(get|getAll|getAsync|getAllAsync)$/][callee.object.name=/^(ctx|context|container|door|parent|from)$/]",
          message: 'resolve with get/getAll/getOptional from composition/tokens.ts, never the resolution context directly',
        },
        ...typedWiring,
        ...optionalFieldSpreads,
      ],
    },
  },
  // Prettier owns layout (`npm run format`); ESLint's layout rules stay off so the two never disagree.
  prettier,
);
