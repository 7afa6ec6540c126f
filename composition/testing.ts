/**
 * `porter-runtime/testing`: what a host needs to test its own flows against Porter, offline and
 * through the public wire only: the scripted model, a Standard Webhooks signer and an MCP door
 * token helper. Test code: nothing here belongs in production.
 */
export { scriptedModel, type ScriptedModelOptions } from './testing/scripted-model.js';
export type { ModelScript, ScriptedReply, ScriptedTurn } from '../adapters/model/scripted-language-model.js';
export { signWebhook, type SignWebhookOptions } from './testing/sign-webhook.js';
export type { StandardWebhookHeaders } from '../adapters/webhooks/standard-webhooks-signature.js';
export { doorToken, type DoorToken, type DoorTokenOptions, type DoorTokenTarget } from './testing/door-token.js';
