'use client';
import { getToolName, isToolUIPart, type DynamicToolUIPart, type ToolUIPart, type UIMessage } from 'ai';
import { useCallback, useState } from 'react';

/** A tool call in a message, as the AI SDK keeps it: `tool-<name>` parts and `dynamic-tool` parts. */
export type PorterToolUIPart = ToolUIPart | DynamicToolUIPart;

/** Where a tool call is: the AI SDK's states of a tool part. */
export type PorterToolState = PorterToolUIPart['state'];

/** How risky Porter judged a call that waits for approval: it reads, it changes data, or it destroys. */
export type PorterRisk = 'read' | 'write' | 'destructive';

/**
 * What Porter says of a call that waits for a person, from the `data-porter-approval` part it
 * streams beside the tool part: the approval's id, what the call would do, and its risk.
 */
export interface PorterApproval {
  readonly approvalId: string;
  readonly toolCallId: string;
  /** What the call would do, in words for the person ("Add the note “milk”"). */
  readonly preview: string;
  readonly risk: PorterRisk | (string & {});
  /** The call reaches outside the deployment (the internet). */
  readonly egress?: boolean | undefined;
}

/** An answer to an approval, as `useChat`'s `addToolApprovalResponse` takes it. */
export interface PorterApprovalResponse {
  readonly id: string;
  readonly approved: boolean;
}

/** Whether a message part is a tool call (static or dynamic): the parts `PorterToolPart` draws. */
export function isPorterToolPart(part: { readonly type: string }): part is PorterToolUIPart {
  return isToolUIPart(part as UIMessage['parts'][number]);
}

/**
 * Porter's approval card for the tool call `toolCallId` among a message's parts (its
 * `data-porter-approval` part), or null when the message has none for it.
 */
export function porterApprovalOf(
  message: { readonly parts: ReadonlyArray<{ readonly type: string }> },
  toolCallId: string,
): PorterApproval | null {
  for (const part of message.parts) {
    if (part.type !== 'data-porter-approval') continue;
    const data = (part as { data?: Record<string, unknown> }).data;
    if (!data || data.toolCallId !== toolCallId || typeof data.approvalId !== 'string') continue;
    return {
      approvalId: data.approvalId,
      toolCallId,
      preview: typeof data.preview === 'string' ? data.preview : '',
      risk: typeof data.risk === 'string' ? data.risk : 'write',
      ...(typeof data.egress === 'boolean' ? { egress: data.egress } : {}),
    };
  }
  return null;
}

/**
 * Porter's cards of the tool parts `usePorterThread` has handed out, by the part object itself, so
 * a part drawn on its own (without its message) still finds its preview and risk. Weakly held: a
 * part no longer rendered takes its card with it.
 */
const cardsOfParts = new WeakMap<object, PorterApproval>();

/** Notes the cards of `messages`' tool parts (idempotent: the same parts map to the same cards). */
export function noteApprovalCards(messages: ReadonlyArray<{ readonly parts: ReadonlyArray<{ readonly type: string }> }>): void {
  for (const message of messages) {
    if (!message.parts.some((part) => part.type === 'data-porter-approval')) continue;
    for (const part of message.parts) {
      if (!isPorterToolPart(part) || cardsOfParts.has(part)) continue;
      const card = porterApprovalOf(message, part.toolCallId);
      if (card) cardsOfParts.set(part, card);
    }
  }
}

/** The words `PorterToolPart` shows; replace any of them (another language, your product's voice). */
export interface PorterToolPartLabels {
  readonly states: Readonly<Record<PorterToolState, string>>;
  /** Said once the person answered, while the call waits for the turn to carry on. */
  readonly approved: string;
  readonly denied: string;
  readonly risks: Readonly<Record<string, string>>;
  readonly egress: string;
  readonly input: string;
  readonly output: string;
  readonly error: string;
  readonly approve: string;
  readonly deny: string;
  /** The approval group's accessible name; `{tool}` is the tool's name. */
  readonly approvalNeeded: string;
}

/** Some of the words of `PorterToolPartLabels`. */
export type PorterToolPartLabelOverrides = Partial<Omit<PorterToolPartLabels, 'states' | 'risks'>> & {
  readonly states?: Partial<Record<PorterToolState, string>> | undefined;
  readonly risks?: Readonly<Record<string, string>> | undefined;
};

export const DEFAULT_LABELS: PorterToolPartLabels = {
  states: {
    'input-streaming': 'Preparing…',
    'input-available': 'Running…',
    'approval-requested': 'Needs your approval',
    'approval-responded': 'Answered · waiting to run',
    'output-available': 'Done',
    'output-error': 'Failed',
    'output-denied': 'Denied · not run',
  },
  approved: 'Approved · waiting to run',
  denied: 'Denied',
  risks: { read: 'Reads data', write: 'Changes data', destructive: 'Destructive' },
  egress: 'Reaches the internet',
  input: 'Input',
  output: 'Result',
  error: 'Error',
  approve: 'Approve',
  deny: 'Deny',
  approvalNeeded: 'Approval needed: {tool}',
};

export interface UsePorterToolPartOptions {
  /** The tool part (`isPorterToolPart(part)`). */
  readonly part: PorterToolUIPart;
  /** Answers the approval: pass `useChat`'s (or `usePorterThread`'s) `addToolApprovalResponse`. */
  readonly onApprovalResponse?: ((response: PorterApprovalResponse) => unknown) | undefined;
  /**
   * The message the part is in: Porter's approval card (preview, risk) is read from its parts.
   * Not needed for messages of `usePorterThread`, which finds the card itself.
   */
  readonly message?: { readonly parts: ReadonlyArray<{ readonly type: string }> } | undefined;
  /** Porter's approval card itself, when you have it another way (overrides `message`). */
  readonly approval?: PorterApproval | null | undefined;
  /** Words to use instead of the defaults (any of them; `states` and `risks` one by one too). */
  readonly labels?: PorterToolPartLabelOverrides | undefined;
}

/** Everything there is to draw of one tool call, and its approval's actions. */
export interface PorterToolView {
  readonly toolCallId: string;
  /** The tool's name (`notes_add`). */
  readonly toolName: string;
  /** The part's display title, when the tool gave one. */
  readonly title: string | null;
  readonly state: PorterToolState;
  /** The state in words (`labels.states`, or approved / denied once answered). */
  readonly stateLabel: string;
  readonly input: unknown;
  /** The result, when the state is `output-available`. */
  readonly output: unknown;
  readonly errorText: string | undefined;
  /** The approval this call waits for (`approval-requested`), with Porter's card when known; else null. */
  readonly approval: { readonly id: string; readonly card: PorterApproval | null } | null;
  /** The risk in words, when Porter's card says it. */
  readonly riskLabel: string | null;
  /** True while an answer given here is being handed over (the buttons are disabled then). */
  readonly answering: boolean;
  /** Whether approve / deny do anything: an approval waits and `onApprovalResponse` was given. */
  readonly canAnswer: boolean;
  /** Approves the call (no-op without a pending approval or `onApprovalResponse`). */
  approve(): void;
  /** Denies the call. */
  deny(): void;
  readonly labels: PorterToolPartLabels;
}

/**
 * The headless core of `PorterToolPart`: what to show of a tool part, and approve / deny wired to
 * `onApprovalResponse`. Draw it with your own components.
 */
export function usePorterToolPart(options: UsePorterToolPartOptions): PorterToolView {
  const { part, onApprovalResponse } = options;
  const [answering, setAnswering] = useState(false);
  const pendingId = part.state === 'approval-requested' ? part.approval.id : null;
  const answer = useCallback(
    (approved: boolean) => {
      if (pendingId === null || !onApprovalResponse || answering) return;
      setAnswering(true);
      // The part moves on to `approval-responded`; until then the buttons stay disabled.
      void Promise.resolve()
        .then(() => onApprovalResponse({ id: pendingId, approved }))
        .finally(() => setAnswering(false));
    },
    [pendingId, onApprovalResponse, answering],
  );
  return porterToolView(options, answering, answer);
}

/** What `usePorterToolPart` shows, given whether an answer is being handed over and how to give one (no hooks: a server render uses it too). */
export function porterToolView(
  { part, onApprovalResponse, message, approval, labels }: UsePorterToolPartOptions,
  answering: boolean,
  answer: (approved: boolean) => void,
): PorterToolView {
  const words: PorterToolPartLabels = {
    ...DEFAULT_LABELS,
    ...labels,
    states: { ...DEFAULT_LABELS.states, ...labels?.states },
    risks: { ...DEFAULT_LABELS.risks, ...labels?.risks },
  };
  const pendingId = part.state === 'approval-requested' ? part.approval.id : null;
  const card =
    approval ??
    (message ? porterApprovalOf(message, part.toolCallId) : null) ??
    cardsOfParts.get(part) ??
    (pendingId !== null && part.state === 'approval-requested' && part.approval.requestReason
      ? { approvalId: pendingId, toolCallId: part.toolCallId, preview: part.approval.requestReason, risk: 'write' }
      : null);
  const answered = part.state === 'approval-responded' ? (part.approval.approved ? words.approved : words.denied) : null;
  return {
    toolCallId: part.toolCallId,
    toolName: getToolName(part),
    title: part.title ?? null,
    state: part.state,
    stateLabel: answered ?? words.states[part.state] ?? part.state,
    input: part.input,
    output: part.state === 'output-available' ? part.output : undefined,
    errorText: part.state === 'output-error' ? part.errorText : undefined,
    approval: pendingId !== null ? { id: pendingId, card } : null,
    riskLabel: card ? (words.risks[card.risk] ?? card.risk) : null,
    answering,
    canAnswer: pendingId !== null && onApprovalResponse !== undefined,
    approve: () => answer(true),
    deny: () => answer(false),
    labels: words,
  };
}
