import { defineTool, type AiSdkToolSpec, type PorterToolFields, type ToolSpec } from '../../application/tools/define-tool.js';
import type { ToolDefinition } from '../../ports/tool-registry.js';

/**
 * An AI SDK `tool(…)`, described by its shape rather than the SDK's own `Tool` type (whose
 * declarations do not pass `exactOptionalPropertyTypes`, so naming it here would fail hosts that
 * check libraries). Any input type: the tool's own `execute` decides it.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AiSdkTool = Omit<AiSdkToolSpec<any>, keyof PorterToolFields<unknown>>;

/** An AI SDK `tool(…)` in the `tools` record: its key is its name; Porter's fields may sit beside it. */
export type AiSdkToolEntry = AiSdkTool & Partial<PorterToolFields<unknown>>;

/**
 * The host's tools: an array of `defineTool(…)` results (or plain JSON Schema tools), or a record
 * `{ name: tool }` in the AI SDK's ToolSet style, where a tool without a `risk` is a write (it asks).
 */
export type ToolsOption =
  ReadonlyArray<ToolDefinition | (AiSdkTool & PorterToolFields<unknown>)> | Readonly<Record<string, ToolDefinition | AiSdkToolEntry>>;

type Refuse = (path: ReadonlyArray<string | number>, message: string) => void;

/** Every entry through `defineTool`; what is wrong is refused at its index (or key), each named. */
export function hostTools(option: ToolsOption, refuse: Refuse): ToolDefinition[] {
  const tools: ToolDefinition[] = [];
  const named = new Map<string, string | number>();
  const entries: Array<[string | number, unknown]> = Array.isArray(option)
    ? option.map((tool, index) => [index, tool])
    : Object.entries(option);
  for (const [at, entry] of entries) {
    if (typeof entry !== 'object' || entry === null) {
      refuse([at], 'must be a tool: defineTool({ name, description, input, risk, execute }), or an AI SDK tool(…) in a record');
      continue;
    }
    let tool: ToolDefinition;
    try {
      tool = typeof at === 'number' ? defineTool(entry as ToolSpec) : defineTool(namedByKey(at, entry));
    } catch (error) {
      refuse([at], error instanceof Error ? error.message : String(error));
      continue;
    }
    const earlier = named.get(tool.name);
    if (earlier !== undefined) {
      refuse([at], `another tool is already named "${tool.name}" (tools.${earlier})`);
      continue;
    }
    named.set(tool.name, at);
    tools.push(tool);
  }
  return tools;
}

/**
 * A record's entry takes its key as its name and asks unless it says otherwise. Laid over the entry
 * rather than copied, so a tool whose methods live on its prototype keeps them.
 */
function namedByKey(key: string, entry: object): ToolSpec {
  const { name, risk } = entry as { name?: unknown; risk?: unknown };
  if (name !== undefined && name !== key) throw new Error(`is named "${String(name)}": a tool in the record takes its key as its name`);
  return Object.assign(Object.create(entry) as object, { name: key, risk: risk ?? 'write' }) as ToolSpec;
}
