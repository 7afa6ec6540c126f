'use client';
/**
 * `porter-runtime/react` when Node loads it itself (the `module-sync` export condition, which
 * bundlers leave aside): the same API, but its hook and component call no hook in a server render.
 * See adapters/client/react/server-render.ts for why (Next.js renders with its own React copy).
 */
export * from './react.js';
// Named here, these take the place of the browser build's three of the same names.
export { usePorterThread, usePorterToolPart, PorterToolPart } from '../adapters/client/react/server-render.js';
