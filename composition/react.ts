'use client';
/**
 * `porter-runtime/react`: React building blocks for a host's own chat on Porter's wire, drawn with
 * any design system. `usePorterThread` is `useChat` (@ai-sdk/react) on one Porter thread, created or
 * loaded and kept in the address; `PorterToolPart` draws a tool call with its approval. `react` and
 * `@ai-sdk/react` are optional peer dependencies: only a host that imports this entry needs them.
 */
export {
  usePorterThread,
  type UsePorterThreadOptions,
  type UsePorterThreadResult,
  type PorterThreadChange,
} from '../adapters/client/react/use-porter-thread.js';
export {
  PorterToolPart,
  type PorterToolPartProps,
  type PorterToolPartClassNames,
  type PorterToolPartComponents,
  type PorterToolPartSlot,
} from '../adapters/client/react/porter-tool-part.js';
export {
  usePorterToolPart,
  isPorterToolPart,
  porterApprovalOf,
  DEFAULT_LABELS as PORTER_TOOL_PART_LABELS,
  type UsePorterToolPartOptions,
  type PorterToolView,
  type PorterToolUIPart,
  type PorterToolState,
  type PorterApproval,
  type PorterApprovalResponse,
  type PorterRisk,
  type PorterToolPartLabels,
  type PorterToolPartLabelOverrides,
} from '../adapters/client/react/porter-tool-view.js';
