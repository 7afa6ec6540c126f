import { parsePartialJson } from 'ai';
import { DOCUMENT_LIMITS, NODE_TYPES } from '../../domain/apps/app-document.js';
import { AppGenerationFailed } from '../../domain/apps/app-errors.js';
import type { ActionTool, AppGenerator, CreateRequest, EditRequest, TokenSpend } from '../../ports/app-generator.js';
import type { Model } from '../../ports/model.js';

/** What the model is told the format is. Short: every token of it is paid on every generation. */
const FORMAT = `You write app documents: one JSON object, nothing else (no prose, no code fences).
Shape: {"format":1,"title":string,"ui":"tree","scope":"owner","root":<node id>,
"nodes":{<id>:{"type":<type>,"props":{<name>:<string|number|boolean|null>},"children":[<ids>],"bind":<data key>,"action":<action key>}},
"data":{<key>:{"collection":<name>}},"actions":{<key>:{"kind":"put-record"|"delete-record","collection":<name>}|{"kind":"call","target":"fn:<name>"}},
"server":null|{"files":{<relative path>:<text>}},"egress":null}
Node types: ${NODE_TYPES.join(', ')}. Ids and keys: letters, digits, _ or -. One tree: every node reachable from root, one parent each.
Write nodes parent before children, root first, so the app appears top-down while you write.
Server code only when the request needs it: "fn:<name>" calls run POST /fn/<name> on the app's own server, from "functions/<name>.js" (CommonJS, module.exports = async (input) => output).
At most ${DOCUMENT_LIMITS.maxNodes} nodes.`;

/** Past this many host tools the list is cut: the format is paid for on every generation. */
const MAX_LISTED_TOOLS = 50;

/**
 * The host tools an app may run, told to the model in a few lines each: name, risk, what it does
 * and its input fields. Nothing when the host has none.
 */
export function describeActionTools(tools: ReadonlyArray<ActionTool>): string {
  if (tools.length === 0) return '';
  const lines = tools
    .slice(0, MAX_LISTED_TOOLS)
    .map(
      (tool) =>
        `- ${tool.name} (${tool.risk}${tool.egress ? ', reaches the internet' : ''}): ${tool.description.replace(/\s+/g, ' ').slice(0, 200)} Input: ${inputFields(tool.inputSchema)}`,
    );
  return `
Actions may also run one of the host's tools: {"kind":"tool","tool":<name>,"input":{<name>:<fixed value>}}. A form (or a button beside inputs) sends its fields, keyed by each field's "name" prop, as the tool's input; "input" fixes values nobody types. Writes ask the person before they run. The host's tools:
${lines.join('\n')}`;
}

function inputFields(schema: Readonly<Record<string, unknown>>): string {
  const properties =
    typeof schema.properties === 'object' && schema.properties !== null ? (schema.properties as Record<string, { type?: unknown }>) : {};
  const required = new Set(Array.isArray(schema.required) ? schema.required.filter((r): r is string => typeof r === 'string') : []);
  const fields = Object.entries(properties).map(
    ([name, property]) => `${name}${required.has(name) ? '' : '?'}: ${typeof property?.type === 'string' ? property.type : 'any'}`,
  );
  return fields.length > 0 ? `{${fields.join(', ')}}` : 'none';
}

export interface ModelAppGeneratorOptions {
  readonly maxOutputTokens?: number;
  /** The host tools an app's actions may run (the host's, never Porter's own). */
  readonly tools?: ReadonlyArray<ActionTool>;
}

/**
 * Generation through the deployment's language model (the Model port over the AI SDK): the model
 * streams the document as JSON text, and each time the text parses as partial JSON (the AI SDK's
 * parsePartialJson repairs a cut-off object) the draft is yielded, so the view fills in as the
 * model writes. The last draft is the model's finished answer; an answer that is no complete JSON
 * object (prose, a document cut off) is AppGenerationFailed, the model's failure.
 */
export class ModelAppGenerator implements AppGenerator {
  private readonly maxOutputTokens: number;
  private readonly instructions: string;

  constructor(
    private readonly model: Model,
    options: ModelAppGeneratorOptions = {},
  ) {
    this.maxOutputTokens = options.maxOutputTokens ?? 32_000;
    this.instructions = `${FORMAT}${describeActionTools(options.tools ?? [])}`;
  }

  create({ prompt, signal, spend }: CreateRequest): AsyncIterable<unknown> {
    return this.stream(`Write a new app for this request:\n${prompt}`, signal, spend);
  }

  edit({ document, instruction, kind, signal, spend }: EditRequest): AsyncIterable<unknown> {
    const rule =
      kind === 'tree'
        ? 'This is a tree edit: keep "server" and every "fn:" call exactly as they are.'
        : 'This edit may change server code.';
    return this.stream(
      `Here is the current app:\n${JSON.stringify(document)}\n\nChange it as asked and answer with the whole updated document. ${rule}\nRequest: ${instruction}`,
      signal,
      spend,
    );
  }

  private async *stream(request: string, signal: AbortSignal, spend?: TokenSpend): AsyncIterable<unknown> {
    let text = '';
    let last: unknown = undefined;
    let parsedAt = 0;
    for await (const event of this.model.streamStep({
      instructions: this.instructions,
      messages: [{ id: 'generate', role: 'user', parts: [{ type: 'text', text: request }] }],
      tools: [],
      maxOutputTokens: this.maxOutputTokens,
      signal,
    })) {
      if (event.type === 'text-delta') {
        text += event.delta;
        // Parsing is linear in the text so far: parse again only once it grew by an eighth.
        if (text.length - parsedAt < Math.max(120, parsedAt / 8)) continue;
        parsedAt = text.length;
        const { value, state } = await parsePartialJson(jsonPart(text));
        if ((state === 'repaired-parse' || state === 'successful-parse') && typeof value === 'object' && value !== null) {
          last = value;
          yield value;
        }
      } else if (event.type === 'finish') {
        // Counted before anything else is decided: a step that ran out of tokens spent them too.
        if (event.totalTokens) await spend?.(event.totalTokens);
        if (event.reason === 'length') throw new AppGenerationFailed('it ran out of output tokens before finishing the document');
      }
    }
    const { value, state } = await parsePartialJson(jsonPart(text));
    if (state !== 'successful-parse') throw new AppGenerationFailed('it did not answer with a complete JSON document');
    if (value !== last) yield value;
  }
}

/** The JSON object in the answer: from the first `{`, without a code fence a model may add anyway. */
function jsonPart(text: string): string {
  const start = text.indexOf('{');
  if (start < 0) return '';
  const body = text.slice(start);
  const fence = body.lastIndexOf('```');
  return fence > 0 ? body.slice(0, fence) : body;
}
