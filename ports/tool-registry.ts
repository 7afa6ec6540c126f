import type { StandardSchemaV1 } from '@standard-schema/spec';
import type { Principal } from '../domain/principal.js';
import type { EffectiveRisk, Presence, Risk, Venue } from '../domain/guard/risk.js';
import type { ConnectedAccount } from './connections.js';

/** A JSON Schema describing a tool's input object. */
export type JsonSchema = Readonly<Record<string, unknown>>;

/** What a tool is given when it runs. */
export interface ToolContext {
  readonly principal: Principal;
  readonly venue: Venue;
  readonly presence: Presence;
  readonly toolCallId: string;
  /** The conversation, door session or run this call belongs to. */
  readonly session: string;
  readonly threadId?: string;
  readonly runId?: string;
  /** Aborted when the caller goes away or the run is stopped. */
  readonly signal: AbortSignal;
  /** The same signal under the AI SDK's name, so an AI SDK tool's `execute(input, options)` reads it. */
  readonly abortSignal: AbortSignal;
  /**
   * Always empty: Porter does not hand the conversation to tools. Present so the context is also a
   * valid AI SDK `ToolExecutionOptions`.
   */
  readonly messages: [];
  /**
   * Always undefined, as the AI SDK hands a tool it has no `toolsContext` for: Porter's own context
   * is this object. Present so the context is also a valid AI SDK `ToolExecutionOptions`.
   */
  readonly context: undefined;
  /**
   * Calls the host's own HTTP API as this principal: with the person's forwarded credentials when
   * present (needs PORTER_BASE_URL), with act-as material when away or through the door.
   */
  hostFetch(path: string, init?: RequestInit): Promise<Response>;
  /**
   * The Web `fetch`, through Porter's egress guard: how a tool marked `egress: true` reaches out on
   * someone's behalf. The host is resolved once and refused when it is (or resolves to) a loopback,
   * private, link-local (cloud metadata), CGNAT, multicast or other non-public address, in any
   * spelling; the connection goes to the address that was checked, and each redirect is checked
   * again. A refusal rejects with an `egress-refused` error naming the host and the address class.
   * Aborted with the call.
   */
  fetch(input: string | URL | Request, init?: RequestInit): Promise<Response>;
  /**
   * Streams a data part to the person watching (a chat turn), e.g. `data-porter-view` updates of an
   * app being generated. A part with an id replaces the earlier one with the same id. Absent when
   * nobody watches (automations, the door).
   */
  writeData?(part: StreamedData): void;
  /**
   * Cites a source on the answer: the AI SDK's `source-document` or `source-url` part, kept on the
   * message (a source cited twice is one part). Absent when there is no answer to cite on.
   */
  cite?(source: StreamedSource): void;
  /**
   * For a tool that declares `connection`: the caller's active account of that toolkit. The call
   * fails with a connection-required error (and the chat offers to connect) when there is none.
   */
  readonly connection?: ConnectedAccount;
}

export interface StreamedData {
  readonly type: `data-${string}`;
  readonly id?: string;
  readonly data: unknown;
}

/** JSON a source part's `providerMetadata` carries, by provider (Porter's own under `porter`). */
export type SourceMetadata = Readonly<Record<string, Readonly<Record<string, string | number | boolean | null>>>>;

/** A source the answer draws on, as the AI SDK's UI message stream names it (`source-document`, `source-url`). */
export type StreamedSource =
  | {
      readonly type: 'source-document';
      readonly sourceId: string;
      readonly mediaType: string;
      readonly title: string;
      readonly filename?: string;
      readonly providerMetadata?: SourceMetadata;
    }
  | {
      readonly type: 'source-url';
      readonly sourceId: string;
      readonly url: string;
      readonly title?: string;
      readonly providerMetadata?: SourceMetadata;
    };

/** What a tool's `resolveRisk` is told of the call it resolves. */
export interface RiskContext {
  readonly principal: Principal;
  /** Where the call comes from (absent only when a caller outside the guard asks). */
  readonly venue?: Venue;
  /**
   * The tools whose output the calling model has read in this conversation (its window over the
   * history and this turn): set for a chat turn and a run, absent where Porter cannot see what the
   * caller read (an app's action, the door). A tool's output is text the person did not write, so a
   * tool that must not be talked into acting by it (Porter's `memory_save`) asks when this names
   * any tool but its own, or is absent.
   */
  readonly toolOutputsRead?: ReadonlyArray<string>;
}

/**
 * A tool the agent, an app, an automation or the door can call, always through the guard.
 * `Input` is what `execute` and the hooks receive: the parsed input when the tool has an `input`
 * schema, the checked JSON otherwise. `defineTool` builds one with the types filled in.
 */
/** A tool's fields beside its schema and `execute`: its name, its risk and the guard's hooks. */
export interface PorterToolFields<Input> {
  /** What the model calls it: a letter, then up to 63 letters, digits, `_` or `-`. */
  readonly name: string;
  /** `read` runs freely; `write` and `destructive` ask the person (unless a grant or policy says otherwise). */
  readonly risk: Risk;
  /** Reaches outside the host (the network, third parties): asks even when it only reads. */
  readonly egress?: boolean;
  /**
   * Whether calling it changes nothing: what the MCP door tells outside agents (`readOnlyHint`,
   * which clients use to run a tool without asking). Default: a `read` tool without `resolveRisk`.
   * Set `false` for a tool the guard lets run freely that still creates or changes something (Porter's
   * `porter_apps_create`); `true` is refused on a `write` or `destructive` tool.
   */
  readonly readOnly?: boolean;
  /**
   * Whether running it twice with the same input does no more than running it once. An automation
   * run whose instance died while this tool ran (so nobody knows whether it did) runs it again on
   * its next attempt when true; otherwise that run ends failed, saying it cannot resume. Default:
   * true for a tool that changes nothing (see `readOnly`), false for the rest.
   */
  readonly idempotent?: boolean;
  /** The toolkit (e.g. `github`) whose connected account this tool acts through; see ToolContext.connection. */
  readonly connection?: string;
  /** For tools whose risk depends on the input or on state, resolved at call time (after the input is checked). */
  resolveRisk?(input: Input, context: RiskContext): EffectiveRisk | Promise<EffectiveRisk>;
  /** One line a person reads on the approval card. */
  preview?(input: Input): string;
  /**
   * For tools that change a generated app: which app, and the content hash the person approves
   * against. Kept on a parked approval so a rebase of that app can invalidate it.
   */
  approvalContext?(input: Input, context: { principal: Principal }): Promise<{ appId: string; contentHash: string } | null>;
}

export interface ToolDefinition<Input = unknown> extends PorterToolFields<Input> {
  readonly description: string;
  /** What the model and the door are told to send. */
  readonly inputSchema: JsonSchema;
  /**
   * Checks and parses every input (a Standard Schema: zod 4, Valibot, ArkType…); its value is what
   * the hooks and `execute` receive. Absent, the input is checked against `inputSchema` as it is.
   */
  readonly input?: StandardSchemaV1<unknown, Input>;
  execute(input: Input, context: ToolContext): Promise<unknown>;
}

/** An input that passed, as the tool receives it (parsed: defaults and transforms applied), or why it did not. */
export type InputCheck = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly issues: ReadonlyArray<string> };

export interface RegisteredTool extends ToolDefinition {
  /**
   * Checks an input with the tool's schema. Never rejects: a schema that throws is an issue of
   * the input, which the caller (the model, an app, the door) reads back.
   */
  checkInput(input: unknown): Promise<InputCheck>;
}

export interface ToolRegistry {
  list(): ReadonlyArray<RegisteredTool>;
  get(name: string): RegisteredTool | null;
}
