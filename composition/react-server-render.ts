'use client';
/**
 * `porter-runtime/react` when Node loads it itself (the `module-sync` export condition, which
 * bundlers leave aside): the same API for a server render, with no hook called. See
 * adapters/client/react/server-render.ts for why (Next.js renders with its own React copy).
 */
export { usePorterThread, usePorterToolPart, PorterToolPart } from '../adapters/client/react/server-render.js';
export type { UsePorterThreadOptions, UsePorterThreadResult, PorterThreadChange } from '../adapters/client/react/use-porter-thread.js';
export type {
  PorterToolPartProps,
  PorterToolPartClassNames,
  PorterToolPartComponents,
  PorterToolPartSlot,
} from '../adapters/client/react/porter-tool-part.js';
export {
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
} from '../adapters/client/react/porter-tool-view.js';
