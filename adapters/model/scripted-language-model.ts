import { createHash } from 'node:crypto';
import type { LanguageModelV3, LanguageModelV3CallOptions, LanguageModelV3Prompt, LanguageModelV3StreamPart, LanguageModelV3Usage } from '@ai-sdk/provider';

/**
 * The offline scripted model of the development host (and of tests): a real AI SDK language model
 * that needs no network and always answers the same way.
 * - `/call <tool> <json args>` calls that tool, then reports its result;
 * - `/app <prompt>` calls porter_apps_create; `/edit <appId> <instruction>` calls porter_apps_edit;
 * - anything else streams back `echo: <text>` word by word.
 */
export class ScriptedLanguageModel implements LanguageModelV3 {
  readonly specificationVersion = 'v3';
  readonly provider = 'porter';
  readonly modelId = 'scripted';
  readonly supportedUrls = {};

  async doGenerate(): Promise<never> {
    throw new Error('The scripted model only streams');
  }

  async doStream(options: LanguageModelV3CallOptions) {
    const reply = this.reply(options.prompt);
    const parts: LanguageModelV3StreamPart[] = [{ type: 'stream-start', warnings: [] }];
    let outputTokens = 0;
    if (reply.kind === 'text') {
      const words = reply.text.split(/(?<=\s)/).filter(Boolean);
      const allowed = options.maxOutputTokens === undefined ? words : words.slice(0, Math.max(options.maxOutputTokens, 0));
      parts.push({ type: 'text-start', id: 't0' });
      for (const word of allowed) parts.push({ type: 'text-delta', id: 't0', delta: word });
      parts.push({ type: 'text-end', id: 't0' });
      outputTokens = allowed.length;
      parts.push({ type: 'finish', finishReason: { unified: allowed.length < words.length ? 'length' : 'stop', raw: undefined }, usage: usage(outputTokens) });
    } else {
      const id = `call_${createHash('sha256').update(JSON.stringify(options.prompt)).digest('hex').slice(0, 16)}`;
      parts.push({ type: 'tool-call', toolCallId: id, toolName: reply.tool, input: JSON.stringify(reply.input) });
      parts.push({ type: 'finish', finishReason: { unified: 'tool-calls', raw: undefined }, usage: usage(1) });
    }
    return {
      stream: new ReadableStream<LanguageModelV3StreamPart>({
        start(controller) {
          for (const part of parts) controller.enqueue(part);
          controller.close();
        },
      }),
    };
  }

  private reply(prompt: LanguageModelV3Prompt): { kind: 'text'; text: string } | { kind: 'tool'; tool: string; input: unknown } {
    const last = prompt[prompt.length - 1];
    if (last?.role === 'tool') {
      return { kind: 'text', text: last.content.map((part) => (part.type === 'tool-result' ? describeResult(part.toolName, part.output) : '')).join(' ') };
    }
    if (last?.role !== 'user') return { kind: 'text', text: 'echo:' };
    const text = last.content.map((part) => (part.type === 'text' ? part.text : '')).join('').trim();

    const call = /^\/call\s+([A-Za-z][\w-]*)\s*([\s\S]*)$/.exec(text);
    if (call) {
      const raw = call[2]!.trim() || '{}';
      try {
        return { kind: 'tool', tool: call[1]!, input: JSON.parse(raw) };
      } catch {
        return { kind: 'text', text: `I could not read ${raw} as JSON arguments.` };
      }
    }
    const app = /^\/app\s+([\s\S]+)$/.exec(text);
    if (app) return { kind: 'tool', tool: 'porter_apps_create', input: { prompt: app[1]!.trim() } };
    const edit = /^\/edit\s+(\S+)\s+([\s\S]+)$/.exec(text);
    if (edit) return { kind: 'tool', tool: 'porter_apps_edit', input: { appId: edit[1]!, instruction: edit[2]!.trim() } };
    return { kind: 'text', text: `echo: ${text}` };
  }
}

function describeResult(toolName: string, output: { type: string; value?: unknown; reason?: string }): string {
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

function usage(output: number): LanguageModelV3Usage {
  return {
    inputTokens: { total: 0, noCache: 0, cacheRead: 0, cacheWrite: 0 },
    outputTokens: { total: output, text: output, reasoning: 0 },
  };
}
