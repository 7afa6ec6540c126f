import type { AppDocument } from '../../domain/apps/app-document.js';
import type { ClientAuthMethod } from '../../domain/door/door-client.js';
import type { DoorCaller } from '../../domain/door/door-caller.js';
import type { OAuthErrorCode } from '../../domain/door/oauth-refusal.js';
import type { ToolHints } from '../../domain/door/tool-annotations.js';
import type { Principal } from '../../domain/principal.js';
import type { Risk } from '../../domain/guard/risk.js';
import type { RunState } from '../../domain/runs/run.js';
import type { JsonSchema } from '../tool-registry.js';
import type { UseCase } from '../use-case.js';

/**
 * Where the door is reachable for this request: the authorization server's issuer and the
 * protected resource (the transport URL), both `{origin}{wire}/mcp` for the local server.
 */
export interface DoorSite {
  readonly issuer: string;
  readonly resource: string;
}

/** RFC 7591 client metadata the door understands (unknown fields were dropped, as §2 asks). */
export interface ClientRegistration {
  readonly redirectUris: ReadonlyArray<string>;
  readonly clientName?: string;
  /** As asked; one the door does not know is replaced by `none`. */
  readonly tokenEndpointAuthMethod?: string;
  readonly grantTypes?: ReadonlyArray<string>;
  readonly responseTypes?: ReadonlyArray<string>;
  readonly scope?: string;
  readonly clientUri?: string;
  readonly logoUri?: string;
  readonly softwareId?: string;
  readonly softwareVersion?: string;
}

export interface RegisteredClient {
  readonly clientId: string;
  /** Only for confidential clients, and only in this answer: the door keeps its digest. */
  readonly clientSecret?: string;
  readonly clientIdIssuedAt: number;
  readonly redirectUris: ReadonlyArray<string>;
  readonly clientName: string;
  readonly grantTypes: ReadonlyArray<string>;
  readonly responseTypes: ReadonlyArray<string>;
  readonly tokenEndpointAuthMethod: ClientAuthMethod;
  readonly scope: string;
  readonly clientUri?: string;
  readonly logoUri?: string;
  readonly softwareId?: string;
  readonly softwareVersion?: string;
}

/** The `/authorize` query as received; the use case applies the rules (redirect or refuse). */
export interface AuthorizeQuery {
  readonly responseType?: string;
  readonly clientId?: string;
  readonly redirectUri?: string;
  readonly codeChallenge?: string;
  readonly codeChallengeMethod?: string;
  readonly scope?: string;
  readonly state?: string;
  readonly resource?: string;
}

export interface OAuthProblem {
  readonly error: OAuthErrorCode;
  readonly description: string;
}

/** A tool as the consent page lists it. */
export interface ConsentTool {
  readonly name: string;
  readonly description: string;
  readonly risk: Risk;
  readonly egress: boolean;
}

/** What the consent page shows. Computed per request from the ask and the registry; never stored. */
export interface ConsentView {
  /** The one-time handle the form posts back. */
  readonly handle: string;
  readonly client: {
    readonly id: string;
    readonly name: string;
    readonly clientUri: string | null;
    readonly redirectOrigin: string;
    /**
     * For a client that names itself by its Client ID Metadata Document: that URL's host, the one
     * thing about the client the door checked (its name is whatever the document says).
     */
    readonly documentHost?: string;
  };
  readonly person: { readonly subject: string; readonly name?: string };
  readonly scope: string;
  readonly tools: ReadonlyArray<ConsentTool>;
}

export type AuthorizationStep =
  /** Bad client or redirect URI: never redirect to it (RFC 6749 §4.1.2.1). */
  | { readonly kind: 'refuse'; readonly problem: OAuthProblem }
  /** Back to the client, with a code or an error. */
  | { readonly kind: 'redirect'; readonly location: string }
  /** Nobody is signed in with the host: send the person to sign in, then back here. */
  | { readonly kind: 'sign-in' }
  | { readonly kind: 'consent'; readonly view: ConsentView };

export interface AuthorizeRequest {
  readonly query: AuthorizeQuery;
  readonly site: DoorSite;
  /** The person signed in with the host on this browser, or null. */
  readonly signedIn: Principal | null;
}

export interface ConsentAnswer {
  readonly handle: string;
  readonly approve: boolean;
  readonly site: DoorSite;
  readonly signedIn: Principal | null;
}

/** How a client presented itself at the token or revocation endpoint. */
export interface ClientCredentials {
  readonly clientId?: string;
  readonly clientSecret?: string;
  /** Where the credentials came from; a client must use the method it registered. */
  readonly via: 'none' | 'client_secret_post' | 'client_secret_basic';
}

export type TokenRequest =
  | {
      readonly grantType: 'authorization_code';
      readonly code?: string;
      readonly redirectUri?: string;
      readonly codeVerifier?: string;
      readonly resource?: string;
      readonly client: ClientCredentials;
      readonly site: DoorSite;
    }
  | {
      readonly grantType: 'refresh_token';
      readonly refreshToken?: string;
      readonly scope?: string;
      readonly resource?: string;
      readonly client: ClientCredentials;
      readonly site: DoorSite;
      /**
       * When the request reached the door (ISO), taken before its body was read; the use case's
       * own clock otherwise. A rotation recorded after it raced this request rather than preceded it.
       */
      readonly requestedAt?: string;
    };

export interface TokenGrant {
  readonly accessToken: string;
  readonly tokenType: 'Bearer';
  readonly expiresIn: number;
  readonly refreshToken: string;
  readonly scope: string;
}

export interface RevocationRequest {
  readonly token?: string;
  readonly tokenTypeHint?: string;
  readonly client: ClientCredentials;
}

/** The bearer on a transport request: admitted as a caller, or refused with why. */
export type Admission =
  { readonly ok: true; readonly caller: DoorCaller } | { readonly ok: false; readonly reason: 'missing' | 'invalid' | 'gone' };

/** A tool as the door lists it to an MCP client. */
export interface DoorTool {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: JsonSchema;
  readonly hints: ToolHints;
}

export interface DoorToolCall {
  readonly caller: DoorCaller;
  /** The door session (one MCP session); the guard's session for retries and session grants. */
  readonly session: string;
  readonly tool: string;
  readonly input: unknown;
  readonly signal: AbortSignal;
  /** The approval this call answers: a client's retry after the person was sent to approve it. */
  readonly continues?: string;
}

/**
 * A run the person started through the door (`porter_automations_run`), as the task an MCP client
 * follows (the Tasks extension): its id is the run's, and everything about it is read from the
 * run's record, so any instance answers.
 */
export interface DoorTask {
  readonly taskId: string;
  readonly automationId: string;
  readonly state: RunState;
  readonly createdAt: string;
  /** The latest moment the run changed: created, begun, an attempt, a stop asked, ended. */
  readonly lastUpdatedAt: string;
  /** Once it ended: the agent's last words when it succeeded, otherwise why it failed or stopped. */
  readonly summary: string | null;
}

/** A task as a caller names it: their own run started through the door, or nothing. */
export interface DoorTaskRef {
  readonly caller: DoorCaller;
  readonly taskId: string;
}

export type DoorToolResult =
  /** `task`: the call started a run, which a client that declares the Tasks extension follows as a task. */
  | { readonly kind: 'ran'; readonly output: unknown; readonly task?: DoorTask }
  | { readonly kind: 'parked'; readonly approvalId: string; readonly toolCallId: string; readonly risk: Risk; readonly preview: string }
  /** `reason` `connection-required`: the tool acts through an account of the person's they have not connected. */
  | { readonly kind: 'failed'; readonly error: string; readonly code?: string; readonly reason?: string }
  | { readonly kind: 'blocked'; readonly reason: string }
  | { readonly kind: 'invalid'; readonly issues: ReadonlyArray<string> }
  /** Over a breaker or a budget: nothing ran nor was parked; `retryAfterSeconds` null when it never frees. */
  | { readonly kind: 'rate-limited'; readonly budget: string; readonly retryAfterSeconds: number | null; readonly error: string }
  | { readonly kind: 'unknown-tool' };

/** The local authorization server's endpoints. */
export interface DoorOAuthUseCases {
  readonly registerClient: UseCase<ClientRegistration, RegisteredClient>;
  readonly beginAuthorization: UseCase<AuthorizeRequest, AuthorizationStep>;
  readonly answerConsent: UseCase<ConsentAnswer, AuthorizationStep>;
  readonly issueTokens: UseCase<TokenRequest, TokenGrant>;
  readonly revokeToken: UseCase<RevocationRequest, void>;
}

/** An app the connected person may open, as the door lists it to an MCP Apps client. */
export interface DoorApp {
  readonly id: string;
  readonly title: string;
  readonly ui: 'tree' | 'http';
  readonly version: string;
  readonly updatedAt: string;
}

/**
 * What an MCP Apps host draws an app from: its tree, bindings and actions (never its server code),
 * and the records its bindings show, as they stand when it is read.
 */
export interface DoorAppView {
  readonly app: DoorApp & Pick<AppDocument, 'root' | 'nodes' | 'data' | 'actions'>;
  /** By collection: the newest records of each collection a node is bound to. */
  readonly records: Readonly<Record<string, ReadonlyArray<{ readonly id: string; readonly data: unknown }>>>;
}

/** Generated apps offered to MCP clients that declare the MCP Apps extension (absent with `apps: false`). */
export interface DoorAppsUseCases {
  readonly listApps: UseCase<{ caller: DoorCaller }, ReadonlyArray<DoorApp>>;
  /** The app as its owner (or, shared, anyone signed in) sees it; null for one the caller may not open or that is gone. */
  readonly viewApp: UseCase<{ caller: DoorCaller; appId: string }, DoorAppView | null>;
  /** The door tool that opens an app (`porter_apps_open`): its result shows the app to a host that renders apps. */
  readonly openTool: string;
}

/** What the transport calls on every request and inside each session. */
export interface DoorTransportUseCases {
  readonly admitCaller: UseCase<{ token: string | null; site: DoorSite }, Admission>;
  readonly listTools: UseCase<void, ReadonlyArray<DoorTool>>;
  readonly callTool: UseCase<DoorToolCall, DoorToolResult>;
  readonly apps?: DoorAppsUseCases;
  /** `tasks/get`: the caller's run started through the door, or null (unknown, someone else's, or not a door run). */
  readonly getTask: UseCase<DoorTaskRef, DoorTask | null>;
  /** `tasks/cancel`: stops that run (cooperatively, wherever it executes); null as for `getTask`. */
  readonly cancelTask: UseCase<DoorTaskRef, DoorTask | null>;
}
