import type { SandboxLimit } from '../sandbox.js';
import type { AppDocument } from '../../domain/apps/app-document.js';
import type { VersionChange } from '../../domain/apps/app.js';
import type { AppView } from '../../domain/apps/app-view.js';
import type { PinDrift } from '../../domain/apps/fork-pin.js';
import type { Risk } from '../../domain/guard/risk.js';
import type { Principal } from '../../domain/principal.js';
import type { UseCase } from '../use-case.js';

/** Where the view of an app being generated goes (a chat turn's `data-porter-view` part). */
export type ViewSink = (view: AppView) => void;

export interface AppSummary {
  readonly id: string;
  readonly title: string;
  readonly ui: 'tree' | 'http';
  readonly scope: 'owner' | 'shared';
  readonly version: string;
  readonly versionNumber: number;
  readonly nodes: number;
  /** The remixable slot this app forks, if it is a fork. */
  readonly slot: string | null;
  readonly drifted: boolean;
  readonly createdAt: string;
  readonly updatedAt: string;
}

export interface AppDetail extends AppSummary {
  readonly document: AppDocument;
  readonly contentHash: string;
  /** `fn:<name>` references; they run only once the app is served. */
  readonly fnRefs: ReadonlyArray<string>;
}

/** `GET /apps/:id/open`. `resuming`: served, but its server is being brought back. */
export interface OpenPayload {
  /** `resuming`: served, its server being brought back; `stopped`: its sandbox stopped it for a limit. */
  readonly kind: 'tree' | 'http' | 'resuming' | 'stopped';
  readonly payload?: { readonly appId: string; readonly version: string; readonly document: AppDocument };
  /**
   * For a served app: its own page, proxied through the wire, relative to it (`/apps/<id>/view/`).
   * A client frames it sandboxed; its functions answer under `/apps/<id>/fn/<name>`.
   */
  readonly url?: string;
  readonly pinDrift: PinDrift | null;
  /** With `stopped`: the limit it crossed, what to tell its owner, and when a request may start it again. */
  readonly stopped?: { readonly limit: SandboxLimit; readonly message: string; readonly retryAt: string };
}

export interface EditResult {
  readonly app: AppDetail;
  readonly driftedPins: ReadonlyArray<PinDrift>;
  /** Things the person should know, e.g. `fn:` calls that run only once the app is served. */
  readonly issues?: ReadonlyArray<string>;
}

export interface VersionSummary {
  readonly id: string;
  readonly number: number;
  readonly change: VersionChange;
  readonly contentHash: string;
  readonly createdAt: string;
  readonly instruction?: string;
}

export interface AppRecordView {
  readonly id: string;
  readonly collection: string;
  readonly data: unknown;
  readonly createdAt: string;
  readonly updatedAt: string;
}

export interface BlobContent {
  readonly key: string;
  readonly contentType: string;
  readonly bytes: Uint8Array;
}

export interface Placement {
  readonly slot: string;
  /** The caller's newest fork of the slot, or null: the host renders its own component. */
  readonly appId: string | null;
  readonly version: string | null;
  readonly drifted: boolean;
}

/** What `porter sync` prints: each slot's component hash and which forks drifted. */
export interface SyncReport {
  readonly checkedAt: string;
  readonly slots: ReadonlyArray<{ readonly slot: string; readonly hash: string; readonly forks: number; readonly drifted: number }>;
  /** Forks newly marked drifted by this run. */
  readonly drifted: ReadonlyArray<PinDrift & { readonly appId: string }>;
  /** Forks that became current again (the host went back to their baseline). */
  readonly current: ReadonlyArray<{ readonly appId: string; readonly slot: string }>;
  readonly missing: ReadonlyArray<{ readonly slot: string; readonly reason: string }>;
}

export interface FunctionAnswer {
  readonly status: number;
  readonly contentType: string;
  readonly body: Uint8Array;
}

/** A served app's page or asset, as the wire passes it on (nothing else of the app's answer). */
export interface PageAnswer {
  readonly status: number;
  readonly contentType: string;
  readonly body: Uint8Array;
}

/** `POST /apps/:id/actions/:action` when the tool did not fail: it ran, or it waits for the person. */
export type ActionAnswer =
  | { readonly status: 'ran'; readonly output: unknown }
  | { readonly status: 'parked'; readonly approvalId: string; readonly toolCallId: string; readonly risk: Risk; readonly preview: string };

export interface RunActionInput {
  readonly principal: Principal;
  readonly appId: string;
  /** A key of the document's `actions` whose kind is `tool`. */
  readonly action: string;
  /** What the page gathered (a form's fields); the action's own fixed values win over these. */
  readonly input: Readonly<Record<string, unknown>>;
  /** The person's own credentials, forwarded to the host in present mode. */
  readonly credentials?: { readonly cookie?: string; readonly authorization?: string };
  readonly signal?: AbortSignal;
}

/**
 * Apps running host tools. Separate from AppsUseCases because it sits behind the guard, whose
 * tool registry already holds the apps tools built from AppsUseCases.
 */
export interface AppActionUseCases {
  readonly runAction: UseCase<RunActionInput, ActionAnswer>;
}

type Of<T = object> = { readonly principal: Principal; readonly appId: string } & T;

/**
 * A generation asked by the agent loop (a chat turn's or a run's tool call), which already holds
 * the person's place among their turns in flight: it takes none of its own. Never from the wire.
 */
type InTurn = { withinTurn?: boolean };

export interface AppsUseCases {
  readonly listApps: UseCase<
    { principal: Principal; limit?: number; cursor?: string | null },
    { apps: ReadonlyArray<AppSummary>; nextCursor: string | null }
  >;
  readonly createApp: UseCase<{ principal: Principal; prompt: string; view?: ViewSink; signal?: AbortSignal } & InTurn, AppDetail>;
  readonly getApp: UseCase<Of, AppDetail>;
  readonly deleteApp: UseCase<Of, void>;
  readonly openApp: UseCase<Of, OpenPayload>;
  readonly editApp: UseCase<Of<{ instruction: string; view?: ViewSink; signal?: AbortSignal } & InTurn>, EditResult>;
  readonly listVersions: UseCase<Of, { versions: ReadonlyArray<VersionSummary> }>;
  readonly exportApp: UseCase<Of, { filename: string; bytes: Uint8Array }>;
  readonly importApp: UseCase<{ principal: Principal; bytes: Uint8Array }, AppDetail>;
  readonly seedApp: UseCase<{ principal: Principal; slot: string; instruction?: string; signal?: AbortSignal }, AppDetail>;
  readonly listPlacements: UseCase<{ principal: Principal; slots: ReadonlyArray<string> }, { placements: ReadonlyArray<Placement> }>;
  readonly rebasePin: UseCase<Of<{ slot: string; signal?: AbortSignal } & InTurn>, EditResult>;
  readonly syncPins: UseCase<Record<string, never>, SyncReport>;
  readonly graduateApp: UseCase<Of, AppDetail>;
  readonly callFunction: UseCase<Of<{ name: string; input: unknown }>, FunctionAnswer>;
  /** `GET /apps/:id/view[/*]`: a page or asset of the served app, `path` origin-relative with its query. */
  readonly viewServedApp: UseCase<Of<{ path: string; accept?: string; acceptLanguage?: string }>, PageAnswer>;
  readonly listRecords: UseCase<
    Of<{ collection: string; limit?: number; cursor?: string | null }>,
    { records: ReadonlyArray<AppRecordView>; nextCursor: string | null }
  >;
  readonly getRecord: UseCase<Of<{ collection: string; recordId: string }>, AppRecordView>;
  readonly putRecord: UseCase<Of<{ collection: string; recordId?: string; data: unknown }>, { record: AppRecordView; created: boolean }>;
  readonly deleteRecords: UseCase<Of<{ collection: string; recordId?: string }>, { deleted: number }>;
  readonly getBlob: UseCase<Of<{ key: string }>, BlobContent>;
  readonly putBlob: UseCase<
    Of<{ key: string; contentType: string; bytes: Uint8Array }>,
    { key: string; contentType: string; size: number }
  >;
  readonly deleteBlob: UseCase<Of<{ key: string }>, void>;
}
