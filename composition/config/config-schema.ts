import { z } from 'zod';
import type { PrincipalResolver } from '../../ports/principal-resolver.js';
import type { Store } from '../../ports/store.js';
import type { Logger } from '../../ports/logger.js';
import type { ActAsPreset } from '../../ports/act-as.js';
import type { RISKS, VENUES } from '../../domain/guard/risk.js';
import type {
  EmbeddingModelV2,
  EmbeddingModelV3,
  EmbeddingModelV4,
  LanguageModelV2,
  LanguageModelV3,
  LanguageModelV4,
} from '@ai-sdk/provider';
import type { Sandbox } from '../../ports/sandbox.js';
import type { CanShareApps } from '../../ports/app-sharing.js';
import type { MemoryOrgOf } from '../../ports/memory-org.js';
import type { KnowledgeAdminOf, KnowledgeOrgOf } from '../../ports/knowledge-access.js';
import { DEFAULT_MAX_DOCUMENT_BYTES } from '../../application/knowledge/knowledge-settings.js';
import { DEFAULT_MAX_MEMORIES_PER_PERSON, DEFAULT_RECALL_TOKENS } from '../../application/memory/memory-settings.js';
import { WEBHOOK_SOURCE_NAME } from '../../domain/webhooks/delivery.js';
import type { DoorPrincipalLookup } from '../../ports/door-principals.js';
import type { ConsentPageRenderer } from '../../adapters/mcp/consent-page.js';
import { pinManifestSchema } from '../../adapters/apps/file-pin-catalog.js';
import { ACCEPTED_DATABASE_URLS, parseDatabaseUrl } from '../../adapters/store/database-url.js';
import { hostTools, type ToolsOption } from './tools-option.js';
import { DEFAULT_BREAKERS, type Breakers } from '../../domain/usage/budget.js';
import { DEFAULT_UPLOAD_POLICY } from '../../domain/files/upload-policy.js';

/** How many turns of one subject run at once unless the host says otherwise (`maxTurnsInFlight`). */
export const DEFAULT_MAX_TURNS_IN_FLIGHT = 4;
import type { PorterOptions } from './porter-options.js';
import { DEFAULT_UNDO_SECONDS } from '../../domain/deletions/pending-deletion.js';

/** A few seconds: long enough for a busy database, short enough that a frozen one answers 503 soon. */
export const DEFAULT_DATABASE_TIMEOUTS = { statementMs: 4_000, acquireMs: 4_000 } as const;

export type { PorterOptions } from './porter-options.js';

/** Ten seconds to answer; eight attempts over about four hours, as Standard Webhooks senders space them. */
export const DEFAULT_COMPLETION_WEBHOOKS = { timeoutSeconds: 10, retryDelaysSeconds: [5, 30, 120, 600, 1800, 3600, 10_800] } as const;

const fn = <T>(what: string) => z.custom<T>((value) => typeof value === 'function', { message: `must be a function (${what})` });
const instance = <T>(what: string, probe: (value: Record<string, unknown>) => boolean) =>
  z.custom<T>((value) => typeof value === 'object' && value !== null && probe(value as Record<string, unknown>), {
    message: `must be ${what}`,
  });

/**
 * Where the wire answers: one plain path, compared byte for byte with what clients send. A dot
 * segment (`/api/../x`) is what a URL parser removes before the request arrives, so a mount holding
 * one could never be reached as written (and would name another place once normalized); `%`, `\`,
 * `?`, `#`, empty segments and a trailing slash cannot appear at all.
 */
const mountPath = z
  .string()
  .regex(
    /^(\/[A-Za-z0-9._~-]+)+$/,
    'must be a path like /api/porter: /segments of letters, digits, ".", "_", "~" or "-", no trailing slash',
  )
  .refine((path) => path.split('/').every((segment) => segment !== '.' && segment !== '..'), {
    message: 'must not hold a "." or ".." segment: a URL parser removes them before a request arrives',
  });

/**
 * The door's own authorization server. `principal(subject)` re-resolves a connected user on every
 * door request (null closes their sessions); the rest dresses and wires the consent page.
 */
const oauthSchema = z.strictObject({
  principal: fn<DoorPrincipalLookup>('oauth.principal(subject) → Principal | null'),
  /** The host's name, logo and colour on the consent and /connect pages. */
  brand: z
    .strictObject({
      name: z.string().min(1).max(100),
      logoUrl: z
        .string()
        .regex(/^(https:\/\/|\/)/, 'must be an https URL or a path on this site')
        .max(2000)
        .optional(),
      accentColor: z.string().max(40).optional(),
    })
    .optional(),
  /** Renders the whole consent page (see ConsentPageModel); Porter's branded page otherwise. */
  consentPage: fn<ConsentPageRenderer>('oauth.consentPage(model) → HTML').optional(),
  /**
   * Who is signed in on the consent page. The door never calls the host's `principal(req)` (door paths
   * sit outside it): without `signIn` nobody can consent.
   */
  signIn: fn<PrincipalResolver>('oauth.signIn(req) → Principal | null').optional(),
  /** Where to send a person who is not signed in; they come back to `returnTo`. */
  signInUrl: fn<(returnTo: string) => string>('oauth.signInUrl(returnTo) → URL').optional(),
  accessTokenTtlSeconds: z
    .number()
    .int()
    .min(60)
    .max(24 * 3600)
    .optional(),
  /** How long an instance trusts an access token it already checked (ms; 0 checks the store every request). */
  tokenCacheMs: z.number().int().min(0).max(10_000).optional(),
  refreshTokenTtlSeconds: z
    .number()
    .int()
    .min(3600)
    .max(365 * 24 * 3600)
    .optional(),
  /** The refresh grace window in seconds (0 turns it off); see DoorSettings.refreshGraceSeconds. */
  refreshGraceSeconds: z.number().int().min(0).max(60).optional(),
});

/** The door's transport. */
const doorSchema = z.strictObject({
  /**
   * Browser origins that may use the transport besides the base URL's and, on a loopback
   * connection, loopback ones (`https://app.example.com`), or `'*'` for any. A request with another
   * `Origin` is 403; the request's Host never counts.
   */
  allowedOrigins: z
    .union([
      z.literal('*'),
      z
        .array(
          z
            .string()
            .regex(/^https?:\/\/[^/\s]+$/, 'must be an origin like https://app.example.com')
            .max(2000),
        )
        .max(100),
    ])
    .optional(),
  /** How long an instance trusts a door session it read from the store (ms); 0 reads it on every request. */
  sessionCacheMs: z.number().int().min(0).max(10_000).optional(),
  /**
   * Where the shipped chrome is served (`/assistant`, a path on the door's origin, or an absolute
   * URL): a call waiting for the person names its Approvals page, a missing connection its
   * Connections page.
   */
  chromeUrl: z
    .string()
    .max(2000)
    .regex(/^(\/|https?:\/\/)[^\s#?]*$/, 'must be a path like /assistant or an http(s) URL, without a query or fragment')
    .optional(),
});

/**
 * An external issuer that owns the door's OAuth endpoints: its JWT access tokens are verified
 * against its JWKS (discovered from its metadata when `jwksUri` is absent).
 */
const remoteAsSchema = z.strictObject({
  issuer: z.url({ message: 'must be the issuer URL' }),
  jwksUri: z.url().optional(),
  /** The `aud` its tokens carry; the door's resource URL (`{origin}{wire}/mcp`) when absent. */
  audience: z.string().min(1).optional(),
  algorithms: z
    .array(z.enum(['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA']))
    .min(1)
    .optional(),
});

const oneOrMany = <T extends z.ZodType>(schema: T) => z.union([schema, z.array(schema).min(1)]);

/** A host policy rule: every given field must match; the first matching rule wins. */
const policyRuleSchema = z.strictObject({
  tool: z.string().min(1).optional(),
  risk: oneOrMany(z.enum(['read', 'write', 'destructive'] satisfies typeof RISKS)).optional(),
  venue: oneOrMany(z.enum(['chat', 'app', 'automation', 'mcp'] satisfies typeof VENUES)).optional(),
  presence: z.enum(['present', 'away']).optional(),
  action: z.enum(['run', 'ask', 'block']),
});

/** The host's tools, each checked as `defineTool` checks it and refused at its index or key. */
const toolsSchema = z
  .custom<ToolsOption>((value) => typeof value === 'object' && value !== null, {
    message:
      'must be an array of tools (defineTool({ name, description, input, risk, execute })) or a record { name: tool } of AI SDK tools',
  })
  .transform((option, ctx) =>
    hostTools(option, (path, message) => ctx.addIssue({ code: 'custom', path: [...path], message, input: option })),
  );

const secretSchema = z.string().min(32, 'must be at least 32 characters');

/**
 * A webhook source and how its deliveries are verified, registered at wiring time. `standard`:
 * self-minted, Standard Webhooks (`whsec_…` secrets); `github` and `stripe`: the provider's own
 * signed headers. Several secrets are accepted while one is rotated.
 */
const webhookSourceSchema = z.discriminatedUnion('kind', [
  z.strictObject({
    kind: z.literal('standard'),
    secret: oneOrMany(z.string().regex(/^whsec_[A-Za-z0-9+/]{22,}={0,2}$/, 'must be a Standard Webhooks secret (whsec_ and base64)')),
  }),
  z.strictObject({ kind: z.literal('github'), secret: oneOrMany(z.string().min(16, 'must be at least 16 characters')) }),
  z.strictObject({
    kind: z.literal('stripe'),
    secret: oneOrMany(z.string().regex(/^whsec_\S{16,}$/, 'must be the endpoint secret Stripe shows (whsec_…)')),
  }),
]);

/**
 * The connection broker: Nango or Composio (bring your own), or the Porter Cloud connections API
 * (docs/connections-cloud-api.md). `false` turns connections off; absent, the environment decides
 * (NANGO_SECRET_KEY [+ NANGO_HOST], COMPOSIO_API_KEY [+ COMPOSIO_BASE_URL], PORTER_CONNECTIONS_URL + PORTER_CONNECTIONS_KEY).
 */
export const connectionsSchema = z.union([
  z.literal(false),
  z.strictObject({
    nango: z.strictObject({ secretKey: z.string().min(1), host: z.url({ message: 'must be the Nango server URL' }).optional() }),
  }),
  z.strictObject({
    composio: z.strictObject({ apiKey: z.string().min(1), baseUrl: z.url({ message: 'must be the Composio API URL' }).optional() }),
  }),
  z.strictObject({ cloud: z.strictObject({ url: z.url({ message: 'must be the connections API base URL' }), key: z.string().min(1) }) }),
]);

const sandboxStartTimeout = z.number().int().min(1000).max(120_000).optional();
const sandboxServiceUrl = z.url({ message: 'must be the sandbox service URL' }).refine((url) => {
  // zod runs this even when the URL check above failed; that failure is the one to report.
  if (!URL.canParse(url)) return true;
  const parsed = new URL(url);
  return parsed.protocol === 'https:' || (parsed.protocol === 'http:' && ['localhost', '127.0.0.1', '[::1]'].includes(parsed.hostname));
}, 'must be https:// (plain http only for a loopback host): the token would travel in the clear');

/** The sandbox adapters Porter ships, with their settings. */
export const sandboxSettingsSchema = z.discriminatedUnion('kind', [
  z.strictObject({
    kind: z.literal('local'),
    root: z.string().min(1).optional(),
    startTimeoutMs: sandboxStartTimeout,
    /** `bubblewrap` (default): each server contained by bwrap; `none`: a plain child process (development). */
    containment: z.enum(['bubblewrap', 'none']).optional(),
    maxServersPerPerson: z.number().int().min(1).max(1000).optional(),
    maxServers: z.number().int().min(1).max(10_000).optional(),
    idleStopMs: z.number().int().min(1000).max(86_400_000).optional(),
    /** With `containment: 'none'`. `auto`: a network namespace per policy-bound app where the OS allows; `cooperative`: never. */
    egressIsolation: z.enum(['auto', 'cooperative']).optional(),
    /** What each app may use under bubblewrap (adapters/sandbox/local/app-limits.ts). */
    appLimits: z
      .strictObject({
        processes: z.number().int().min(16).max(100_000).optional(),
        memoryMb: z.number().int().min(64).max(1_048_576).optional(),
        cpuSecondsPerMinute: z.number().int().min(1).max(3_840).optional(),
        diskMb: z.number().int().min(1).max(1_048_576).optional(),
        cooldownMs: z.number().int().min(0).max(86_400_000).optional(),
        watchMs: z.number().int().min(20).max(10_000).optional(),
      })
      .optional(),
    warm: z.number().int().min(0).max(16).optional(),
    runAs: z.strictObject({ uid: z.number().int().min(1).max(4_294_967_294), gid: z.number().int().min(1).max(4_294_967_294) }).optional(),
  }),
  z.strictObject({
    kind: z.literal('e2b'),
    apiKey: z.string().min(1).optional(),
    template: z.string().min(1).optional(),
    domain: z.string().min(1).optional(),
    apiUrl: z.url().optional(),
    sandboxUrl: z.url().optional(),
    port: z.number().int().min(1).max(65535).optional(),
    timeoutMs: z.number().int().min(60_000).optional(),
    startTimeoutMs: sandboxStartTimeout,
  }),
  z.strictObject({
    kind: z.literal('cloud'),
    url: sandboxServiceUrl,
    token: z.string().min(16, 'must be at least 16 characters'),
    startTimeoutMs: sandboxStartTimeout,
  }),
]);

/**
 * Where graduated apps' servers run: `'local'` (a child process per app; the development default),
 * e2b, a service implementing docs/sandbox-cloud-api.md, or the host's own Sandbox. `false`: none
 * (served apps answer 501).
 */
export const sandboxSchema = z.union(
  [
    z.literal(false),
    z.literal('local'),
    instance<Sandbox>(
      'a Sandbox (kind, open, closeAll)',
      (v) => typeof v.open === 'function' && typeof v.closeAll === 'function' && ['e2b', 'cloud', 'custom'].includes(v.kind as string),
    ),
    sandboxSettingsSchema,
  ],
  { error: "must be false, 'local', { kind: 'local' | 'e2b' | 'cloud', ... } or a Sandbox instance" },
);

/** A media type (`image/png`) or a whole top-level type (`image/*`). */
const mediaTypePattern = z
  .string()
  .regex(/^[a-z0-9][a-z0-9!#$&^_.+-]{0,126}\/(\*|[a-z0-9][a-z0-9!#$&^_.+-]{0,126})$/, 'must be a media type like image/png, or image/*');

/** Where uploaded files' bytes are kept: the store's own database (default), a folder, or an S3-compatible bucket. */
const uploadStoreSchema = z.union(
  [
    z.literal('database'),
    z.strictObject({ kind: z.literal('disk'), folder: z.string().min(1) }),
    z.strictObject({
      kind: z.literal('s3'),
      bucket: z.string().min(3).max(63),
      prefix: z.string().max(200).optional(),
      endpoint: z.url({ message: 'must be the S3-compatible endpoint URL' }).optional(),
      region: z.string().min(1).optional(),
      forcePathStyle: z.boolean().optional(),
      credentials: z.strictObject({ accessKeyId: z.string().min(1), secretAccessKey: z.string().min(1) }).optional(),
    }),
  ],
  { error: "must be 'database', { kind: 'disk', folder } or { kind: 's3', bucket, … }" },
);

const uploadsSchema = z.strictObject({
  accept: z
    .array(mediaTypePattern)
    .min(1)
    .max(100)
    .default([...DEFAULT_UPLOAD_POLICY.accept]),
  maxBytes: z
    .number()
    .int()
    .min(1)
    .max(1024 ** 3)
    .default(DEFAULT_UPLOAD_POLICY.maxBytes),
  maxFilesPerMessage: z.number().int().min(1).max(100).default(DEFAULT_UPLOAD_POLICY.maxFilesPerMessage),
  modelReads: z
    .array(mediaTypePattern)
    .max(100)
    .default([...DEFAULT_UPLOAD_POLICY.modelReads]),
  store: uploadStoreSchema.default('database'),
});

function defaultUploads(): z.output<typeof uploadsSchema> {
  return {
    ...DEFAULT_UPLOAD_POLICY,
    accept: [...DEFAULT_UPLOAD_POLICY.accept],
    modelReads: [...DEFAULT_UPLOAD_POLICY.modelReads],
    store: 'database',
  };
}

/** One budget: at most `max` units over a rolling window of `windowSeconds` (up to a leap year). */
const budgetSchema = z.strictObject({
  max: z.number().int().min(1).max(1e12),
  windowSeconds: z
    .number()
    .int()
    .min(1)
    .max(366 * 86_400),
});

/** The budgets a subject (or an address) may be given, each metered only when given. */
const budgetsSchema = z.strictObject({
  turns: budgetSchema.optional(),
  tokens: budgetSchema.optional(),
  toolCalls: budgetSchema.optional(),
  appGenerations: budgetSchema.optional(),
  uploadBytes: budgetSchema.optional(),
  runs: budgetSchema.optional(),
  embeddingTokens: budgetSchema.optional(),
});

/**
 * `limits`: per-subject budgets, and what the anonymous sessions of one client address share on
 * top of their own (`anonymousPerAddress`: the same budgets unless it says otherwise, `false` for
 * nothing shared).
 */
export const limitsSchema = budgetsSchema.extend({
  anonymousPerAddress: z
    .union([z.literal(false), budgetsSchema], { error: 'must be false or budgets like `limits` ({ turns?, tokens?, … })' })
    .optional(),
});

const breakerValue = (fallback: number) => z.union([z.literal(false), z.number().int().min(1).max(1_000_000)]).default(fallback);

/** `breakers`: each a positive integer or false; `false` turns both off. Output: both always named. */
const breakersSchema = z
  .union(
    [
      z.literal(false),
      z.strictObject({
        toolCallsPerMinute: breakerValue(DEFAULT_BREAKERS.toolCallsPerMinute as number),
        writesPerRun: breakerValue(DEFAULT_BREAKERS.writesPerRun as number),
      }),
    ],
    { error: 'must be false or { toolCallsPerMinute?: number | false, writesPerRun?: number | false }' },
  )
  .transform((value): Breakers => (value === false ? { toolCallsPerMinute: false, writesPerRun: false } : value));

/**
 * Every option a host may pass to `createPorter`, strict: an unknown key is a typo, not a wish.
 * Environment variables fill what the host left out (see loadConfig).
 */
export const configSchema = z
  .strictObject({
    mount: mountPath.default('/api/porter'),
    principal: fn<PrincipalResolver>('principal(req) → Principal | null').optional(),
    development: z.boolean().default(false),
    apps: z.boolean().default(true),
    /** Who may make an app readable by others (`scope: "shared"`); nobody when absent, never an anonymous session. */
    canShareApps: fn<CanShareApps>('canShareApps(principal) → boolean').optional(),
    automations: z.boolean().default(true),
    /** What the agent remembers about each person: its memory tools and recall; `false` turns both off (people still see and delete theirs). */
    memory: z
      .union([
        z.literal(false),
        z.strictObject({
          recallTokens: z.number().int().min(0).max(32_000).default(DEFAULT_RECALL_TOKENS),
          maxPerPerson: z.number().int().min(1).max(10_000).default(DEFAULT_MAX_MEMORIES_PER_PERSON),
          org: fn<MemoryOrgOf>('org(principal) → the org name, or null').optional(),
        }),
      ])
      .default({ recallTokens: DEFAULT_RECALL_TOKENS, maxPerPerson: DEFAULT_MAX_MEMORIES_PER_PERSON }),
    /** The documents the agent answers from (`knowledge_search`, citations); `false` turns the tool off (the routes stay). */
    knowledge: z
      .union([
        z.literal(false),
        z.strictObject({
          admin: fn<KnowledgeAdminOf>('admin(principal) → boolean').optional(),
          org: fn<KnowledgeOrgOf>('org(principal) → the org name, or null').optional(),
          maxDocumentBytes: z
            .number()
            .int()
            .min(1024)
            .max(64 * 1024 * 1024)
            .default(DEFAULT_MAX_DOCUMENT_BYTES),
          embeddingModel: instance<EmbeddingModelV4 | EmbeddingModelV3 | EmbeddingModelV2<string>>(
            'an AI SDK EmbeddingModel',
            (v) => typeof v.doEmbed === 'function' && typeof v.specificationVersion === 'string',
          ).optional(),
        }),
      ])
      .default({ maxDocumentBytes: DEFAULT_MAX_DOCUMENT_BYTES }),
    mcp: z.boolean().default(false),
    oauth: oauthSchema.optional(),
    door: doorSchema.optional(),
    remoteAs: remoteAsSchema.optional(),
    actAs: instance<ActAsPreset>(
      'an act-as preset (actAs.authjs, actAs.hostedIdentity or actAs.jwt)',
      (v) => typeof v.mint === 'function' && typeof v.asHostSees === 'function',
    ).optional(),
    tools: toolsSchema.default([]),
    policy: z.array(policyRuleSchema).default([]),
    model: instance<LanguageModelV4 | LanguageModelV3 | LanguageModelV2>(
      'an AI SDK LanguageModel',
      (v) => typeof v.doStream === 'function' || typeof v.specificationVersion === 'string',
    ).optional(),
    titleModel: z
      .union([
        z.literal(false),
        instance<LanguageModelV4 | LanguageModelV3 | LanguageModelV2>(
          'an AI SDK LanguageModel',
          (v) => typeof v.doStream === 'function' || typeof v.specificationVersion === 'string',
        ),
      ])
      .optional(),
    instructions: z.string().max(100_000).optional(),
    maxSteps: z.number().int().min(1).max(50).default(8),
    approvalTtlSeconds: z
      .number()
      .int()
      .min(60)
      .max(30 * 24 * 3600)
      .default(24 * 3600),
    toolOutputCap: z.number().int().min(0).default(32_000),
    maxOutputTokens: z.number().int().min(1).optional(),
    historyWindow: z.number().int().min(1).optional(),
    /**
     * Absent (the default), a turn runs to its end whether anyone reads it or not. Set, a turn nobody reads on any instance
     * for that many seconds is aborted (0: as soon as its last reader leaves).
     */
    turnGraceSeconds: z.number().int().min(0).max(600).optional(),
    /** What a message sent while a turn runs on its thread does: 409 (`reject`), wait its turn (`enqueue`), or stop the running turn and go next (`interrupt`). */
    concurrentTurns: z.enum(['reject', 'enqueue', 'interrupt']).default('reject'),
    /**
     * How many turns (chat turns, dry runs, app generations outside a turn) one subject runs at once, across its threads and
     * every instance: one more is 429. Bounds how far past a `tokens` budget parallel turns can go.
     */
    maxTurnsInFlight: z
      .union([z.literal(false), z.number().int().min(1).max(1000)], { error: 'must be an integer 1–1000 or false' })
      .default(DEFAULT_MAX_TURNS_IN_FLIGHT),
    /** Longest silence on an open turn stream before an SSE comment is sent, so proxies keep it open. */
    keepAliveSeconds: z.number().min(0.05).max(300).default(15),
    databaseUrl: z.string().min(1).default('sqlite:.porter/porter.db'),
    store: instance<Store>(
      'a Store (records, blobs, ping, close)',
      (v) => typeof v.records === 'function' && typeof v.blobs === 'function',
    ).optional(),
    /**
     * How long the database may keep a request waiting before it answers 503 `unavailable`: one
     * statement (PostgreSQL `statement_timeout`; SQLite's wait for a lock), and getting a
     * connection (PostgreSQL: from the pool, or a new one made).
     */
    databaseTimeouts: z
      .strictObject({
        statementMs: z.number().int().min(100).max(600_000).default(DEFAULT_DATABASE_TIMEOUTS.statementMs),
        acquireMs: z.number().int().min(100).max(600_000).default(DEFAULT_DATABASE_TIMEOUTS.acquireMs),
      })
      .default(DEFAULT_DATABASE_TIMEOUTS),
    baseUrl: z.url({ message: 'must be an absolute URL such as https://app.example.com' }).optional(),
    tickSecret: z.string().min(16, 'must be at least 16 characters').optional(),
    /** Webhook intake: `{ sources: { <name>: { kind, secret } } }`. */
    webhooks: z
      .strictObject({
        sources: z
          .record(z.string().regex(WEBHOOK_SOURCE_NAME, 'must be a source name (a-z, 0-9, _ and -)'), webhookSourceSchema)
          .default({}),
      })
      .default({ sources: {} }),
    /**
     * What drives ticks: `interval` (in this process; the development default), `external` (only
     * `POST /tick`; the production default) or `pg-boss` (several instances on one PostgreSQL).
     */
    scheduler: z.enum(['interval', 'external', 'pg-boss']).optional(),
    tickIntervalSeconds: z.number().int().min(1).max(3600).default(30),
    /** How long a deletion made with a way back (`POST /deletions`) can be undone before it is carried out. */
    undoSeconds: z.number().min(0.5).max(600).default(DEFAULT_UNDO_SECONDS),
    /** Runs one instance executes at once (most of a run is waiting on the model). */
    runConcurrency: z.number().int().min(1).max(1000).default(4),
    /** Completion webhooks: the receiver's time to answer, and the waits before each retry. */
    completionWebhooks: z
      .strictObject({
        timeoutSeconds: z.number().int().min(1).max(60).default(DEFAULT_COMPLETION_WEBHOOKS.timeoutSeconds),
        retryDelaysSeconds: z
          .array(z.number().int().min(0).max(86_400))
          .max(20)
          .default([...DEFAULT_COMPLETION_WEBHOOKS.retryDelaysSeconds]),
      })
      .default({ ...DEFAULT_COMPLETION_WEBHOOKS, retryDelaysSeconds: [...DEFAULT_COMPLETION_WEBHOOKS.retryDelaysSeconds] }),
    /** Files people attach to messages: what is accepted, how much, and where the bytes are kept. */
    uploads: uploadsSchema.default(defaultUploads()),
    /** Per-subject budgets over rolling windows (none by default: nothing metered). */
    limits: limitsSchema.default({}),
    /** Breakers against runaway tool use (on by default). */
    breakers: breakersSchema.default({ ...DEFAULT_BREAKERS }),
    secret: z.union([secretSchema, z.array(secretSchema).min(1)]).optional(),
    /**
     * The proxies in front: `false` (the socket's address), `true` (one proxy, `X-Forwarded-*`), or
     * how many hops and which header carries the client address.
     */
    trustProxy: z
      .union(
        [
          z.boolean(),
          z.strictObject({
            hops: z.number().int().min(1).max(16).default(1),
            addressHeader: z
              .string()
              .regex(/^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,100}$/, 'must be a header name')
              .transform((name) => name.toLowerCase())
              .default('x-forwarded-for'),
          }),
        ],
        { error: 'must be a boolean or { hops?: 1–16, addressHeader?: a header name }' },
      )
      .default(false),
    /**
     * Remixable slots of host components (pins): the path of a JSON manifest `{ slots: [{ slot, file, title? }] }`
     * (files relative to it), or that manifest inline (files relative to the working directory).
     */
    pins: z.union([z.string().min(1), pinManifestSchema]).optional(),
    connections: connectionsSchema.optional(),
    sandbox: sandboxSchema.optional(),
    logger: z
      .union([
        z.enum(['info', 'warn', 'error', 'silent']),
        instance<Logger>('a Logger (info, warn, error)', (v) => typeof v.error === 'function'),
      ])
      .default('info'),
    /** Traces through `@opentelemetry/api`: how a subject appears on spans, and whether content is recorded; `false` opens no span. */
    telemetry: z
      .union([
        z.literal(false),
        z.strictObject({
          subject: z.enum(['hash', 'omit', 'plain']).default('hash'),
          recordContent: z.boolean().default(false),
        }),
      ])
      .default({ subject: 'hash', recordContent: false }),
  })
  .superRefine((config, ctx) => {
    if (config.mcp && !config.oauth) {
      // The door re-asks `oauth.principal(subject)` on every request, with an external issuer too.
      ctx.addIssue({
        code: 'custom',
        path: ['oauth'],
        message: 'is required when `mcp` is true: the door asks `oauth.principal(subject)` on every request (also with `remoteAs`)',
      });
    }
    if ((config.oauth || config.remoteAs) && !config.mcp) {
      ctx.addIssue({
        code: 'custom',
        path: ['mcp'],
        message: 'must be true when `oauth` or `remoteAs` is configured (the door is closed otherwise)',
      });
    }
    if (!config.store && !isDatabaseUrl(config.databaseUrl)) {
      // Never echo the value: a database URL may carry a password.
      ctx.addIssue({
        code: 'custom',
        path: ['databaseUrl'],
        message: `is not a database URL Porter understands; use one of: ${ACCEPTED_DATABASE_URLS.join(', ')}`,
      });
    }
    if (config.scheduler === 'pg-boss' && !/^postgres(ql)?:\/\//.test(config.databaseUrl)) {
      ctx.addIssue({
        code: 'custom',
        path: ['scheduler'],
        message: 'pg-boss needs PostgreSQL: set databaseUrl (PORTER_DATABASE_URL) to the postgres:// database the instances share',
      });
    }
    if (!config.development && !config.secret) {
      ctx.addIssue({
        code: 'custom',
        path: ['secret'],
        message:
          'is required in production: set PORTER_SECRET (32+ characters) so anonymous-session cookies survive restarts and instances',
      });
    }
  });

function isDatabaseUrl(url: string): boolean {
  try {
    parseDatabaseUrl(url);
    return true;
  } catch {
    return false;
  }
}

export type PorterConfig = z.output<typeof configSchema>;

/**
 * The documented `PorterOptions` (porter-options.ts) and this schema name the same options, and
 * everything the schema accepts can be written as PorterOptions: `tsc` fails when they drift.
 */
type SchemaInput = z.input<typeof configSchema>;
type SameKeys<A, B> = [keyof A] extends [keyof B] ? ([keyof B] extends [keyof A] ? true : false) : false;
const optionsNameEveryOption: SameKeys<SchemaInput, PorterOptions> = true;
const optionsAcceptEverySchemaInput = (input: SchemaInput): PorterOptions => input;
void optionsNameEveryOption;
void optionsAcceptEverySchemaInput;
