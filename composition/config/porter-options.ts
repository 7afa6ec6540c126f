import type {
  EmbeddingModelV2,
  EmbeddingModelV3,
  EmbeddingModelV4,
  LanguageModelV2,
  LanguageModelV3,
  LanguageModelV4,
} from '@ai-sdk/provider';
import type { ActAsPreset } from '../../ports/act-as.js';
import type { DoorPrincipalLookup } from '../../ports/door-principals.js';
import type { Logger } from '../../ports/logger.js';
import type { PrincipalResolver } from '../../ports/principal-resolver.js';
import type { Sandbox } from '../../ports/sandbox.js';
import type { CanShareApps } from '../../ports/app-sharing.js';
import type { MemoryOrgOf } from '../../ports/memory-org.js';
import type { KnowledgeAdminOf, KnowledgeOrgOf } from '../../ports/knowledge-access.js';
import type { Store } from '../../ports/store.js';
import type { ConsentPageRenderer } from '../../adapters/mcp/consent-page.js';
import type { E2bSandboxOptions } from '../../adapters/sandbox/e2b/e2b-sandbox-options.js';
import type { ToolsOption } from './tools-option.js';

type OneOrMany<T> = T | ReadonlyArray<T>;

/** One budget of `limits`: at most `max` units over the last `windowSeconds`. */
export interface BudgetOption {
  readonly max: number;
  readonly windowSeconds: number;
}

/** Budgets by name: each is metered only when given. */
export interface UsageBudgets {
  readonly turns?: BudgetOption;
  readonly tokens?: BudgetOption;
  readonly toolCalls?: BudgetOption;
  readonly appGenerations?: BudgetOption;
  /** Bytes of uploaded files (`POST /threads/:id/files`), counted once a file is stored. */
  readonly uploadBytes?: BudgetOption;
  readonly runs?: BudgetOption;
  /** Tokens the embedding model counted (`knowledge.embeddingModel`): a person's searches, and documents an admin adds over the wire. */
  readonly embeddingTokens?: BudgetOption;
}

/** The `limits` option: each budget is metered only when given. */
export interface UsageLimits extends UsageBudgets {
  /**
   * What every anonymous session calling from one client address shares, on top of its own
   * budgets, so a new cookie is not a fresh budget. Default: the same budgets as a subject's (all
   * anonymous sessions of an address together get one subject's worth); budgets given here replace
   * those for the address; `false` shares nothing. The address is the socket's, or what
   * `trustProxy` says to read.
   */
  readonly anonymousPerAddress?: false | UsageBudgets;
}

/** A guard rule: every field given must match the call; the first matching rule wins. */
/** Where uploaded files' bytes are kept (the `uploads.store` option). */
export type UploadStoreOption =
  | 'database'
  | { readonly kind: 'disk'; readonly folder: string }
  | {
      readonly kind: 's3';
      readonly bucket: string;
      readonly prefix?: string;
      readonly endpoint?: string;
      readonly region?: string;
      readonly forcePathStyle?: boolean;
      readonly credentials?: { readonly accessKeyId: string; readonly secretAccessKey: string };
    };

/** The `uploads` option: what people may attach, and where it is kept. */
export interface UploadsOption {
  readonly accept?: ReadonlyArray<string>;
  readonly maxBytes?: number;
  readonly maxFilesPerMessage?: number;
  readonly modelReads?: ReadonlyArray<string>;
  readonly store?: UploadStoreOption;
}

export interface PolicyRule {
  /** A tool name, or a glob such as `notes_*`. */
  readonly tool?: string;
  readonly risk?: OneOrMany<'read' | 'write' | 'destructive'>;
  /** Where the call comes from: a chat turn, an app's action, an automation's run, the MCP door. */
  readonly venue?: OneOrMany<'chat' | 'app' | 'automation' | 'mcp'>;
  /** `present`: the person is watching (chat, apps); `away`: automations and the door. */
  readonly presence?: 'present' | 'away';
  /** `run` lets it through, `ask` parks it as an approval, `block` refuses it (final). */
  readonly action: 'run' | 'ask' | 'block';
}

/** The door's own OAuth 2.1 authorization server (`mcp: true`). */
export interface DoorOAuthOptions {
  /** Re-resolves a connected person on every door request; null closes their sessions. */
  readonly principal: DoorPrincipalLookup;
  /** The host's name, logo (an https URL or a path on this site) and accent colour on the consent and /connect pages. */
  readonly brand?: { readonly name: string; readonly logoUrl?: string; readonly accentColor?: string };
  /** Renders the whole consent page; Porter's branded page otherwise. */
  readonly consentPage?: ConsentPageRenderer;
  /**
   * Who is signed in on the consent page. The door never calls the host's `principal(req)` (door paths
   * sit outside it): without `signIn` nobody can consent.
   */
  readonly signIn?: PrincipalResolver;
  /** Where to send a person who is not signed in; they come back to `returnTo`. */
  readonly signInUrl?: (returnTo: string) => string;
  /** Access token lifetime, 60–86400 seconds (default 3600). */
  readonly accessTokenTtlSeconds?: number;
  /** Refresh token lifetime, 3600–31536000 seconds (default 30 days). */
  readonly refreshTokenTtlSeconds?: number;
  /** How long an instance trusts an access token it already checked, 0–10000 ms (default 1000; 0 checks the store every request). */
  readonly tokenCacheMs?: number;
  /**
   * The refresh grace window, 0–60 seconds (default 10): a refresh token just rotated out, presented
   * again by its own client within this long after the rotation, gets working tokens up to 8 times
   * (one per call a client may have in flight) instead of revoking the family (requests racing the
   * rotation are all answered); the ninth replay revokes it. 0 turns it off.
   */
  readonly refreshGraceSeconds?: number;
}

/** An external issuer that owns the door's OAuth endpoints; its JWTs are verified against its JWKS. */
export interface RemoteAuthorizationServer {
  readonly issuer: string;
  /** Discovered from the issuer's metadata when absent. */
  readonly jwksUri?: string;
  /** The `aud` its tokens carry; the door's resource URL (`{origin}{wire}/mcp`) when absent. */
  readonly audience?: string;
  readonly algorithms?: ReadonlyArray<'RS256' | 'RS384' | 'RS512' | 'PS256' | 'PS384' | 'PS512' | 'ES256' | 'ES384' | 'ES512' | 'EdDSA'>;
}

/** How a webhook source's deliveries are verified: Standard Webhooks (self-minted), GitHub or Stripe. */
export type WebhookSourceOptions =
  | { readonly kind: 'standard'; /** `whsec_…` secrets; several while one rotates. */ readonly secret: OneOrMany<string> }
  | { readonly kind: 'github'; /** 16+ characters. */ readonly secret: OneOrMany<string> }
  | { readonly kind: 'stripe'; /** The endpoint secret Stripe shows (`whsec_…`). */ readonly secret: OneOrMany<string> };

/** The connection broker: Nango or Composio (bring your own), or the Porter Cloud connections API. */
export type ConnectionsOptions =
  | false
  | { readonly nango: { readonly secretKey: string; readonly host?: string } }
  | { readonly composio: { readonly apiKey: string; readonly baseUrl?: string } }
  | { readonly cloud: { readonly url: string; readonly key: string } };

/**
 * Where graduated apps' servers run. The e2b settings are the adapter's own (from a file that
 * does not import the optional `e2b` package), less its request timeout.
 */
export type SandboxOptions =
  | false
  | 'local'
  | Sandbox
  | {
      readonly kind: 'local';
      readonly root?: string;
      /** 1000–120000 ms. */
      readonly startTimeoutMs?: number;
      /**
       * `bubblewrap` (default): each app server runs under bwrap, seeing only its own folder;
       * without bwrap served apps answer 503. `none`: a plain child process that sees the host's
       * files, for development machines without bubblewrap.
       */
      readonly containment?: 'bubblewrap' | 'none';
      /** Live app servers of one person (default 3): the least recently used idle one makes room. */
      readonly maxServersPerPerson?: number;
      /** Live app servers in total (default 20). */
      readonly maxServers?: number;
      /** A server unused this long is stopped and started again on its next request (default 300000 ms). */
      readonly idleStopMs?: number;
      /** With `containment: 'none'` only. `auto`: a network namespace per policy-bound app where the OS allows; `cooperative`: never. */
      readonly egressIsolation?: 'auto' | 'cooperative';
      /**
       * What each app may use under bubblewrap; an app over one is stopped (its owner is told which)
       * and may start again after `cooldownMs`. `processes` (processes and threads, 16–100000,
       * default 128), `memoryMb` (64–1048576, default 512), `cpuSecondsPerMinute` (CPU time of all
       * its processes in any minute, 1–3840, default 45), `diskMb` (its folder and its /tmp, each, 1–1048576,
       * default 256), `cooldownMs` (0–86400000, default 60000), `watchMs` (20–10000, default 200).
       */
      readonly appLimits?: {
        readonly processes?: number;
        readonly memoryMb?: number;
        readonly cpuSecondsPerMinute?: number;
        readonly diskMb?: number;
        readonly cooldownMs?: number;
        readonly watchMs?: number;
      };
      /** App sandboxes kept started and waiting for the next start (0–16, default 2; under bubblewrap). */
      readonly warm?: number;
      /**
       * The host identity app sandboxes run as when Porter runs as root (default nobody,
       * 65534:65534; never root). Porter running as anyone else runs them as itself.
       */
      readonly runAs?: { readonly uid: number; readonly gid: number };
    }
  | ({ readonly kind: 'e2b' } & Omit<E2bSandboxOptions, 'requestTimeoutMs'>)
  | {
      readonly kind: 'cloud';
      /** https (plain http only for a loopback host). */
      readonly url: string;
      /** 16+ characters. */
      readonly token: string;
      readonly startTimeoutMs?: number;
    };

/** Remixable slots of host components: `{ slots: [{ slot, file, title? }] }`. */
export interface PinManifest {
  readonly slots: ReadonlyArray<{ readonly slot: string; readonly file: string; readonly title?: string }>;
}

/**
 * Everything `createPorter` takes. Options win over environment variables; invalid options fail
 * `createPorter` with a `PorterConfigError` naming each one. docs/configuration.md lists
 * every constraint.
 */
export interface PorterOptions {
  /** Where the wire lives (default `/api/porter`; a path like `/api/porter`: no `.` or `..` segment, no empty segment, no trailing slash). */
  readonly mount?: string;
  /**
   * The host's `principal(req)`: who is signed in, or null (an anonymous cookie session stands in).
   * The host's own user object will do: keys besides `subject`, `kind`, `name` and `email` are ignored.
   */
  readonly principal?: PrincipalResolver;
  /** The development composition (development and doctor routes, the scripted model). Default: `NODE_ENV === 'development'`. */
  readonly development?: boolean;
  /** `false` unmounts the apps family. Default true. */
  readonly apps?: boolean;
  /**
   * Who may make an app readable by others: an app made from a document asking for
   * `scope: "shared"` (an import, a generated app, a fork) is shared only when this answers true
   * for the person storing it. Never asked for an anonymous session. Default: nobody.
   */
  readonly canShareApps?: CanShareApps;
  /** `false` unmounts automations, runs, `/tick` and webhooks. Default true. */
  readonly automations?: boolean;
  /**
   * What the agent remembers about each person (docs/memory.md): the `memory_save`,
   * `memory_search` and `memory_forget` tools, and memories recalled into each turn. `false` turns
   * both off; people can still see, export and delete the memories they have. Default on.
   */
  readonly memory?: false | MemoryOptions;
  /**
   * The documents the agent answers from, with citations (docs/knowledge.md): the host adds them
   * with `porter.knowledge.add`, its admins over the wire; the agent searches them with
   * `knowledge_search`. `false` turns the tool off. Default on, with no admin.
   */
  readonly knowledge?: false | KnowledgeOptions;
  /** Opens the MCP door (needs `oauth`). Default false. */
  readonly mcp?: boolean;
  readonly oauth?: DoorOAuthOptions;
  /**
   * The door's transport: `allowedOrigins`, browser origins besides the base URL's and loopback
   * ones on a loopback connection (or `'*'`; another `Origin` is 403; the request's Host never
   * counts), and `sessionCacheMs`, how long an instance trusts a door session
   * it read from the store (or opened or rebuilt itself), 0–10000 ms (default 1000; 0 reads it on every request),
   * and `chromeUrl`, where the shipped chrome is served (`/assistant`, or an absolute URL): a call
   * that needs the person's approval names the chrome's Approvals page to the outside agent, and one
   * that needs a connection its Connections page.
   */
  readonly door?: {
    readonly allowedOrigins?: ReadonlyArray<string> | '*';
    readonly sessionCacheMs?: number;
    readonly chromeUrl?: string;
  };
  readonly remoteAs?: RemoteAuthorizationServer;
  /** How Porter calls the host as a person who is away or comes through the door: `actAs.authjs(…)`, `actAs.hostedIdentity(…)`, `actAs.jwt(…)`. */
  readonly actAs?: ActAsPreset;
  /**
   * The host's tools: `defineTool(…)` results (or plain JSON Schema tools, or AI SDK tools spread
   * beside `name` and `risk`), or a record `{ name: tool }` where a tool without `risk` asks.
   */
  readonly tools?: ToolsOption;
  readonly policy?: ReadonlyArray<PolicyRule>;
  /** An AI SDK language model (`openai('gpt-4.1')`, …); otherwise the model ladder reads the environment. */
  readonly model?: LanguageModelV4 | LanguageModelV3 | LanguageModelV2;
  /**
   * The model that names a thread after its first answer (a short, cheap call counted in `limits.tokens`);
   * default the agent's own model; `false`: the first message names the thread.
   */
  readonly titleModel?: LanguageModelV4 | LanguageModelV3 | LanguageModelV2 | false;
  /** The agent's system prompt (up to 100,000 characters). */
  readonly instructions?: string;
  /** Model steps per turn, 1–50 (default 8). */
  readonly maxSteps?: number;
  /** How long a parked call waits, 60 s–30 days (default 86400). */
  readonly approvalTtlSeconds?: number;
  /** Characters of one tool result the model sees (default 32000; 0: no cap). */
  readonly toolOutputCap?: number;
  /** Model output bound per turn (1 or more). */
  readonly maxOutputTokens?: number;
  /** The last N whole messages re-sent per turn (1 or more; default all). */
  readonly historyWindow?: number;
  /**
   * Absent (the default), a turn runs to its end whether anyone reads it or not: a person who closes
   * the tab finds the whole answer when they come back. Set (0–600 seconds), a turn that nobody reads
   * on any instance for that long is aborted and what it produced so far is kept (0: as soon as its
   * last reader leaves). Readers on every instance count; budgets apply either way.
   */
  readonly turnGraceSeconds?: number;
  /**
   * What a message sent while a turn runs on its thread does, on any instance: `reject` (default)
   * answers 409; `enqueue` waits (the stream opens at once) and runs after the turns ahead of it;
   * `interrupt` stops the running turn (its partial answer is saved) and runs next.
   */
  readonly concurrentTurns?: 'reject' | 'enqueue' | 'interrupt';
  /**
   * How many turns one subject runs at once, across its threads and every instance (chat turns,
   * automation dry runs and app generations asked outside a turn; an anonymous session whose
   * address shares budgets counts toward the address's too): an integer 1–1000 (default 4), or `false` for no bound. One more is refused
   * with 429 `rate-limited` and `Retry-After`. It bounds how far parallel turns can go past a
   * `tokens` budget: by the steps of this many turns.
   */
  readonly maxTurnsInFlight?: number | false;
  /** Longest silence on an open turn stream before an SSE comment keeps it alive through proxies, 0.05–300 seconds (default 15). */
  readonly keepAliveSeconds?: number;
  /** `sqlite:<file>`, `sqlite::memory:`, `postgres://…` or `memory:` (default `sqlite:.porter/porter.db`; env `PORTER_DATABASE_URL`). */
  readonly databaseUrl?: string;
  /** A Store instance instead of a URL. */
  readonly store?: Store;
  /**
   * How long the database may keep a request waiting before it answers 503 `unavailable`, in
   * milliseconds, 100–600000 each: `statementMs` for one statement (on PostgreSQL the server's
   * `statement_timeout` a little under it, and the client's own deadline for a server that does
   * not answer at all; SQLite's wait for another process's lock; default 4000), `acquireMs` for a
   * connection from PostgreSQL's pool or a new one (default 4000). Ignored with `store`.
   */
  readonly databaseTimeouts?: { readonly statementMs?: number; readonly acquireMs?: number };
  /** The host's own origin (an absolute URL); present-mode credential forwarding needs it (env `PORTER_BASE_URL`). */
  readonly baseUrl?: string;
  /** Bearer secret for `POST /tick`, 16+ characters (env `PORTER_TICK_SECRET`). */
  readonly tickSecret?: string;
  /** Webhook intake: `{ sources: { <name>: { kind, secret } } }` (names: a-z, 0-9, `_` and `-`). */
  readonly webhooks?: { readonly sources?: Readonly<Record<string, WebhookSourceOptions>> };
  /** What drives ticks: `interval` (development default), `external` (production default) or `pg-boss` (PostgreSQL). */
  readonly scheduler?: 'interval' | 'external' | 'pg-boss';
  /** The longest the ticker waits between ticks, 1–3600 seconds (default 30); it also wakes at each slot. */
  readonly tickIntervalSeconds?: number;
  /**
   * How long a deletion made with a way back (`POST /deletions`, what the chrome's delete buttons
   * use) can be undone before it is carried out for good, 0.5–600 seconds (default 10).
   */
  readonly undoSeconds?: number;
  /**
   * Runs one instance executes at once, 1–1000 (default 4). A run mostly waits on the model, so
   * for a slot of N runs to start at once give the instances room for N between them.
   */
  readonly runConcurrency?: number;
  /**
   * Completion webhooks (an automation's `notify`): how long a receiver may take to answer (1–60 s,
   * default 10) and the waits before each retry after a non-2xx answer or none (default
   * `[5, 30, 120, 600, 1800, 3600, 10800]` seconds: eight attempts over about four hours).
   */
  readonly completionWebhooks?: { readonly timeoutSeconds?: number; readonly retryDelaysSeconds?: ReadonlyArray<number> };
  /**
   * Files people attach to messages (`POST /threads/:id/files`, then a `file` part naming the url
   * it answered). `accept`: media types (or `type/*`) taken, judged from the bytes, never from what
   * the client says (default PNG, JPEG, GIF, WebP, PDF, plain text, Markdown and CSV); `maxBytes`
   * per file (1–2^30, default 10 MiB, enforced while reading: 413, nothing stored);
   * `maxFilesPerMessage` (1–100, default 5); `modelReads`: the types the model takes as files
   * (default `image/*` and `application/pdf`): text files always reach it as text, a PDF it does not
   * read as its extracted text, and any other type it does not read is refused when attached (415).
   * `store`: where the bytes are kept: `'database'` (default: the store's own database, in chunks),
   * `{ kind: 'disk', folder }` or `{ kind: 's3', bucket, prefix?, endpoint?, region?,
   * forcePathStyle?, credentials? }` (an S3-compatible bucket; needs `@aws-sdk/client-s3` and
   * `@aws-sdk/lib-storage`).
   */
  readonly uploads?: UploadsOption;
  /**
   * Per-subject budgets over rolling windows, each `{ max, windowSeconds }` (max 1–10^12,
   * windowSeconds 1–31622400): `turns`, model `tokens` (the AI SDK's usage, input and output, of
   * turns, runs and app generations), `toolCalls`, `appGenerations` (app creates and edits, seeds
   * with an instruction, rebases), automation `runs` (dry runs included), `uploadBytes` (bytes of
   * files people attach) and `embeddingTokens` (the embedding model's, for hybrid knowledge
   * retrieval). Anonymous sessions of
   * one client address also share budgets (`anonymousPerAddress`). Enforced on the store, across
   * instances; a refusal is 429 `rate-limited` with `Retry-After`. None by default (nothing
   * metered). The development host reads the same JSON from `PORTER_LIMITS`.
   */
  readonly limits?: UsageLimits;
  /**
   * Breakers against runaway tool use: at most `toolCallsPerMinute` tool calls a minute per
   * subject (default 60) and `writesPerRun` write or destructive calls per automation run
   * (default 20). Tripped, the next call parks for approval when the person is there, and the run
   * stops when they are away. Each is a positive integer or `false`; `breakers: false` turns both off.
   */
  readonly breakers?: false | { readonly toolCallsPerMinute?: number | false; readonly writesPerRun?: number | false };
  /**
   * Signs anonymous-session cookies and seals completion-webhook secrets: 32+ characters, or
   * several (the first signs and seals, all verify and open). Required in production (env `PORTER_SECRET`).
   */
  readonly secret?: string | ReadonlyArray<string>;
  /**
   * The proxies in front of Porter. `false` (default): the client address is the socket's and
   * `X-Forwarded-*` is ignored. `true`: one proxy; `X-Forwarded-Proto`/`-Host` count and the client
   * address is the last `X-Forwarded-For` entry (the one that proxy added; the entries before it are
   * whatever the client sent). `{ hops, addressHeader }`: that many proxies (1–16), and the header
   * the nearest one writes the address into (default `x-forwarded-for`; e.g. `x-real-ip`,
   * `cf-connecting-ip`). Anonymous sessions share budgets by this address.
   */
  readonly trustProxy?: boolean | { readonly hops?: number; readonly addressHeader?: string };
  /** Remixable host components: the path of a JSON manifest, or the manifest itself. */
  readonly pins?: string | PinManifest;
  readonly connections?: ConnectionsOptions;
  readonly sandbox?: SandboxOptions;
  /** `info` (default), `warn`, `error`, `silent`, or a Logger. */
  readonly logger?: 'info' | 'warn' | 'error' | 'silent' | Logger;
  /**
   * Traces through `@opentelemetry/api` (the host registers the SDK and exporter; without one
   * every span is a no-op). `subject`: how the principal's subject appears on spans, `hash`
   * (default, keyed by the secret), `omit` or `plain`. `recordContent`: also record prompts,
   * answers and tool inputs (default false). `false`: open no span at all.
   */
  readonly telemetry?: false | { readonly subject?: 'hash' | 'omit' | 'plain'; readonly recordContent?: boolean };
}

/** `knowledge`: who manages the documents, which org a person acts in, and how large a document may be. */
export interface KnowledgeOptions {
  /** Who may add, list and remove documents over the wire (`/knowledge/documents`). Default: nobody (the host still can, with `porter.knowledge`). */
  readonly admin?: KnowledgeAdminOf;
  /** The org a person acts in: documents scoped to it are answered from for them. Default: none. */
  readonly org?: KnowledgeOrgOf;
  /** The most bytes a document is given in (and characters of its text); past it, 413. 1 KiB to 64 MiB, default 2 MiB. */
  readonly maxDocumentBytes?: number;
  /**
   * An AI SDK embedding model (`openai.embedding('text-embedding-3-small')`, …): retrieval becomes
   * hybrid, passages found by their words and by meaning, the two rankings fused. Passages are
   * embedded when a document is added, each query when it is searched; the vectors are kept in
   * libsql's vector index on SQLite and with pgvector on PostgreSQL (full text alone when the
   * extension is missing, said at boot). Tokens count against `limits.embeddingTokens`. Default: none (full text).
   */
  readonly embeddingModel?: EmbeddingModelV4 | EmbeddingModelV3 | EmbeddingModelV2<string>;
}

/** `memory`: how much is recalled into a turn, how many memories a person keeps, and whether they are kept per org. */
export interface MemoryOptions {
  /** Most tokens (about four characters each) of memories recalled into one turn; 0 recalls none. Default 400. */
  readonly recallTokens?: number;
  /** Most memories one person keeps (per org, when kept per org); a save past it is refused. Default 200. */
  readonly maxPerPerson?: number;
  /**
   * Keeps memories per org: answers the org a person is acting in (a string), or null to keep
   * theirs under the person alone. Memories saved under one org are never recalled, listed or
   * changed under another. Default: memories are the person's alone.
   */
  readonly org?: MemoryOrgOf;
}
