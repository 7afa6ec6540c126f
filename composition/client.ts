/**
 * `porter-runtime/client`: what a browser (or any fetch-capable client) needs to talk to Porter's
 * wire: the AI SDK chat transport and the typed wire client. Browser-safe: it imports only `ai`,
 * `openapi-fetch` and these files, nothing of the server.
 */
export {
  porterChatTransport,
  porterChatOptions,
  PorterChatTransport,
  type PorterChatTransportOptions,
} from '../adapters/client/porter-chat-transport.js';
export { createPorterThread, loadPorterThread, PorterWireError, type PorterThread } from '../adapters/client/porter-threads.js';
export type { PorterClientOptions } from '../adapters/client/wire-url.js';
export {
  connectServedApp,
  APP_BRIDGE_PROTOCOL,
  type ServedAppBridgeOptions,
  type ServedAppTheme,
} from '../adapters/client/served-app-bridge.js';
/** Re-exported so a `useChat` that answers approvals in place needs one import. */
export { lastAssistantMessageIsCompleteWithApprovalResponses } from 'ai';
/** A typed client of the whole wire (approvals, grants, automations, runs, apps, …), generated from its OpenAPI document. */
export {
  createWireClient,
  type WireClient,
  type WirePaths,
  type WireSchemas,
  type WireOperations,
} from '../adapters/client/wire-client.js';
