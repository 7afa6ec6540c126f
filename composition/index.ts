/** Porter's public entry point: the factory and the types a host needs to call it. */
export { createPorter, type Porter } from './create-porter.js';
export { PorterConfigError, type PorterConfigIssue } from './config/porter-config-error.js';
export type {
  PorterOptions,
  PolicyRule,
  DoorOAuthOptions,
  RemoteAuthorizationServer,
  WebhookSourceOptions,
  ConnectionsOptions,
  SandboxOptions,
  PinManifest,
  MemoryOptions,
  KnowledgeOptions,
} from './config/porter-options.js';
export type { MemoryOrgOf } from '../ports/memory-org.js';
export type { KnowledgeAdminOf, KnowledgeOrgOf } from '../ports/knowledge-access.js';
export type { PorterKnowledge } from './porter-knowledge.js';
export type { NewDocument, KnowledgeDocumentView, KnowledgeDocumentList, KnowledgeHit, PassageView } from '../ports/use-cases/knowledge.js';
export type { DocumentFormat, DocumentScope } from '../domain/knowledge/knowledge-document.js';
export type { WireMounts, FetchMount, FetchMountInit, KoaMount, KoaMountContext } from '../adapters/http/wire-mounts.js';
export type { ActAsPreset, ActAsMaterial } from '../ports/act-as.js';
export type { Logger } from '../ports/logger.js';
export type { Sandbox } from '../ports/sandbox.js';
export type { Principal } from '../domain/principal.js';
export type { WireRequest } from '../ports/wire-request.js';
export type { PrincipalResolver } from '../ports/principal-resolver.js';
export type { CanShareApps } from '../ports/app-sharing.js';
export type { ToolDefinition, ToolContext, JsonSchema } from '../ports/tool-registry.js';
/** Typed host tools: a zod (or Standard Schema) input, an AI SDK tool spread in, or a plain JSON Schema. */
export {
  defineTool,
  type TypedToolSpec,
  type AiSdkToolSpec,
  type PorterToolFields,
  type ToolSpec,
} from '../application/tools/define-tool.js';
export type { ToolsOption, AiSdkToolEntry } from './config/tools-option.js';
/** What a tool that declares `connection` is handed (`context.connection`) and what its requests look like. */
export type { ConnectedAccount, ProxyRequest, ProxyResponse } from '../ports/connections.js';
export type { Store } from '../ports/store.js';
export type { FeedSet } from '../ports/feeds.js';
export { syncPins } from './apps-sync.js';
export { packApp } from './pack-app.js';
export type { AppDocument } from '../domain/apps/app-document.js';
export type { SyncReport } from '../ports/use-cases/apps.js';
/** For `oauth.consentPage` (a host's own consent page) and `oauth.principal(subject)`. */
export type { ConsentPageModel, ConsentPageRenderer } from '../adapters/mcp/consent-page.js';
export type { DoorBrand } from '../adapters/mcp/door-brand.js';
export type { DoorPrincipalLookup } from '../ports/door-principals.js';
import { authjsSession } from '../adapters/act-as/authjs-session.js';
import { hostedIdentity } from '../adapters/act-as/hosted-identity.js';
import { hs256Jwt } from '../adapters/act-as/hs256-jwt.js';
export { verifyActAs, verifyActAsNode } from '../adapters/act-as/hosted-identity.js';

/** act-as presets: how Porter calls the host as a user when they are away or come through the door. */
export const actAs = { authjs: authjsSession, hostedIdentity, jwt: hs256Jwt };
