import { createHash } from 'node:crypto';
import type { LanguageModelV4CallOptions, LanguageModelV4Prompt, LanguageModelV4StreamPart, LanguageModelV4Usage } from '@ai-sdk/provider';
import { StreamOnlyModel } from './stream-only-model.js';
import { plainTitle, questionOfTitlePrompt, TITLE_INSTRUCTIONS } from '../../domain/threads/thread-title.js';

/**
 * The offline scripted model of the development host (and of tests): a real AI SDK language model
 * that needs no network and always answers the same way.
 * - `/call <tool> <json args>` calls that tool, then reports its result;
 * - `/app <prompt>` calls porter_apps_create; `/edit <appId> <instruction>` calls porter_apps_edit;
 * - `/slow <seconds> <text>` streams the text's words spread evenly over that many seconds (to try
 *   rejoin, stop and reloads by hand);
 * - `/knowledge <query>` calls knowledge_search, then answers from the passages found (cited);
 * - anything else streams back `echo: <text>` word by word;
 * - after a tool ran, it reports the result (`<tool> returned <json>`);
 * - asked to name a conversation (TITLE_INSTRUCTIONS), it answers the first six words of the
 *   person's message, without commands or Markdown.
 * A host's own `script` is asked first (but never for a title); where it answers undefined, the commands above apply.
 */
export class ScriptedLanguageModel extends StreamOnlyModel {
  constructor(private readonly script?: ModelScript) {
    super('porter', 'scripted');
  }

  async doStream(options: LanguageModelV4CallOptions) {
    const reply = titleOf(options.prompt) ?? (await this.scripted(options.prompt)) ?? this.reply(options.prompt);
    // Usage as a provider reports it, so `limits.tokens` can be tried offline: a word is a token.
    const input = promptWords(options.prompt);
    if (reply.kind === 'slow') return { stream: slowly(reply.text, reply.seconds, options, input) };
    const parts: LanguageModelV4StreamPart[] = [{ type: 'stream-start', warnings: [] }];
    if (reply.kind === 'text') {
      const words = reply.text.split(/(?<=\s)/).filter(Boolean);
      const allowed = options.maxOutputTokens === undefined ? words : words.slice(0, Math.max(options.maxOutputTokens, 0));
      parts.push({ type: 'text-start', id: 't0' });
      for (const word of allowed) parts.push({ type: 'text-delta', id: 't0', delta: word });
      parts.push({ type: 'text-end', id: 't0' });
      parts.push({
        type: 'finish',
        finishReason: { unified: allowed.length < words.length ? 'length' : 'stop', raw: undefined },
        usage: usage(allowed.length, input),
      });
    } else {
      const id = `call_${createHash('sha256').update(JSON.stringify(options.prompt)).digest('hex').slice(0, 16)}`;
      parts.push({ type: 'tool-call', toolCallId: id, toolName: reply.tool, input: JSON.stringify(reply.input) });
      parts.push({ type: 'finish', finishReason: { unified: 'tool-calls', raw: undefined }, usage: usage(1, input) });
    }
    return {
      stream: new ReadableStream<LanguageModelV4StreamPart>({
        start(controller) {
          for (const part of parts) controller.enqueue(part);
          controller.close();
        },
      }),
    };
  }

  /** The host's script's answer for this step, as a reply; undefined leaves it to the commands. */
  private async scripted(prompt: LanguageModelV4Prompt): Promise<Reply | undefined> {
    if (!this.script) return undefined;
    const answer = await this.script(turnOf(prompt));
    if (answer === undefined) return undefined;
    if (typeof answer === 'string') return { kind: 'text', text: answer };
    return { kind: 'tool', tool: answer.call, input: answer.input ?? {} };
  }

  private reply(prompt: LanguageModelV4Prompt): Reply {
    const last = prompt[prompt.length - 1];
    if (last?.role === 'tool') {
      return {
        kind: 'text',
        text: last.content.map((part) => (part.type === 'tool-result' ? describeResult(part.toolName, part.output) : '')).join(' '),
      };
    }
    if (last?.role !== 'user') return { kind: 'text', text: 'echo:' };
    const text = last.content
      .map((part) => (part.type === 'text' ? part.text : ''))
      .join('')
      .trim();

    const call = /^\/call\s+([A-Za-z][\w-]*)\s*([\s\S]*)$/.exec(text);
    if (call) {
      const raw = call[2]!.trim() || '{}';
      try {
        return { kind: 'tool', tool: call[1]!, input: JSON.parse(raw) };
      } catch {
        return { kind: 'text', text: `I could not read ${raw} as JSON arguments.` };
      }
    }
    const slow = /^\/slow\s+(\d+(?:\.\d+)?)\s+([\s\S]+)$/.exec(text);
    if (slow) return { kind: 'slow', text: slow[2]!.trim(), seconds: Math.min(Number(slow[1]), MAX_SLOW_SECONDS) };
    const knowledge = /^\/knowledge\s+([\s\S]+)$/.exec(text);
    if (knowledge) return { kind: 'tool', tool: 'knowledge_search', input: { query: knowledge[1]!.trim() } };
    const app = /^\/app\s+([\s\S]+)$/.exec(text);
    if (app) return { kind: 'tool', tool: 'porter_apps_create', input: { prompt: app[1]!.trim() } };
    const edit = /^\/edit\s+(\S+)\s+([\s\S]+)$/.exec(text);
    if (edit) return { kind: 'tool', tool: 'porter_apps_edit', input: { appId: edit[1]!, instruction: edit[2]!.trim() } };
    return { kind: 'text', text: `echo: ${text}` };
  }
}

/** The deterministic title, when the prompt asks for one. */
function titleOf(prompt: LanguageModelV4Prompt): Reply | undefined {
  const [system, user] = prompt;
  if (system?.role !== 'system' || system.content !== TITLE_INSTRUCTIONS || user?.role !== 'user') return undefined;
  const asked = user.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
  return { kind: 'text', text: plainTitle(questionOfTitlePrompt(asked), Infinity).split(' ').slice(0, 6).join(' ') };
}

type Reply =
  { kind: 'text'; text: string } | { kind: 'slow'; text: string; seconds: number } | { kind: 'tool'; tool: string; input: unknown };

/** What the model is asked at one step: the person's latest message and, right after a tool ran, its results. */
export interface ScriptedTurn {
  /** The text of the latest user message. */
  readonly text: string;
  /** Set when the step follows tool calls: each call's tool and output (`undefined` output when it was denied). */
  readonly toolResults?: ReadonlyArray<{ readonly tool: string; readonly output: unknown; readonly denied: boolean }>;
}

/** A scripted step: text to stream back, or a tool call (`input` defaults to `{}`). */
export type ScriptedReply = string | { readonly call: string; readonly input?: unknown };

/** A host's script: its reply for a step, or undefined to leave the step to the built-in commands. */
export type ModelScript = (turn: ScriptedTurn) => ScriptedReply | undefined | Promise<ScriptedReply | undefined>;

function turnOf(prompt: LanguageModelV4Prompt): ScriptedTurn {
  const user = [...prompt].reverse().find((message) => message.role === 'user');
  const text = (user?.role === 'user' ? user.content : [])
    .map((part) => (part.type === 'text' ? part.text : ''))
    .join('')
    .trim();
  const last = prompt[prompt.length - 1];
  if (last?.role !== 'tool') return { text };
  const toolResults = last.content.flatMap((part) =>
    part.type === 'tool-result'
      ? [
          {
            tool: part.toolName,
            output: 'value' in part.output ? part.output.value : undefined,
            denied: part.output.type === 'execution-denied',
          },
        ]
      : [],
  );
  return { text, toolResults };
}

function describeResult(toolName: string, output: { type: string; value?: unknown; reason?: string }): string {
  if (toolName === 'knowledge_search' && output.type === 'json') return answerFrom(output.value);
  switch (output.type) {
    case 'execution-denied':
      return `${toolName} was not run: the call was denied.`;
    case 'error-text':
    case 'error-json':
      return `${toolName} failed: ${typeof output.value === 'string' ? output.value : JSON.stringify(output.value)}`;
    default:
      return `${toolName} returned ${typeof output.value === 'string' ? output.value : JSON.stringify(output.value)}`;
  }
}

/** An answer from knowledge_search's passages: the best one quoted, with its document's title. */
function answerFrom(value: unknown): string {
  const passages = (value as { passages?: Array<{ document?: unknown; text?: unknown }> } | null)?.passages ?? [];
  const best = passages[0];
  if (!best || typeof best.text !== 'string') return 'I found nothing about that in the documents I was given.';
  const text = best.text.replace(/\s+/g, ' ').trim();
  const quoted = text.length > 280 ? `${text.slice(0, 279)}…` : text;
  const more = passages.length > 1 ? ` (${passages.length - 1} more passage${passages.length > 2 ? 's' : ''} cited below.)` : '';
  return `From “${String(best.document)}”: ${quoted}${more}`;
}

const MAX_SLOW_SECONDS = 600;

/** The words of `text` spread evenly over `seconds`; the call's abort signal ends it at once. */
function slowly(
  text: string,
  seconds: number,
  options: LanguageModelV4CallOptions,
  input: number,
): ReadableStream<LanguageModelV4StreamPart> {
  const words = text.split(/(?<=\s)/).filter(Boolean);
  const allowed = options.maxOutputTokens === undefined ? words : words.slice(0, Math.max(options.maxOutputTokens, 0));
  const gapMs = (seconds * 1000) / Math.max(words.length, 1);
  const signal = options.abortSignal;
  const pause = () =>
    new Promise<void>((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const onAbort = () => {
        clearTimeout(timer);
        reject(signal!.reason);
      };
      const timer = setTimeout(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      }, gapMs);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  return new ReadableStream<LanguageModelV4StreamPart>({
    async start(controller) {
      try {
        controller.enqueue({ type: 'stream-start', warnings: [] });
        controller.enqueue({ type: 'text-start', id: 't0' });
        for (const word of allowed) {
          await pause();
          controller.enqueue({ type: 'text-delta', id: 't0', delta: word });
        }
        controller.enqueue({ type: 'text-end', id: 't0' });
        controller.enqueue({
          type: 'finish',
          finishReason: { unified: allowed.length < words.length ? 'length' : 'stop', raw: undefined },
          usage: usage(allowed.length, input),
        });
        controller.close();
      } catch (error) {
        controller.error(error);
      }
    },
  });
}

/** The words of the prompt's text and tool results: the scripted model's input tokens. */
function promptWords(prompt: LanguageModelV4Prompt): number {
  let words = 0;
  for (const message of prompt) {
    const parts = typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : message.content;
    for (const part of parts as ReadonlyArray<{ type: string; text?: string; output?: unknown }>) {
      const text = part.type === 'text' ? (part.text ?? '') : part.type === 'tool-result' ? JSON.stringify(part.output ?? '') : '';
      words += text.split(/\s+/).filter(Boolean).length;
    }
  }
  return words;
}

function usage(output: number, input: number): LanguageModelV4Usage {
  return {
    inputTokens: { total: input, noCache: input, cacheRead: 0, cacheWrite: 0 },
    outputTokens: { total: output, text: output, reasoning: 0 },
  };
}
