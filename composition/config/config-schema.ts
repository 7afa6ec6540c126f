import { z } from 'zod';
import type { PrincipalResolver } from '../../ports/principal-resolver.js';
import type { Store } from '../../ports/store.js';
import type { Logger } from '../../ports/logger.js';
import type { ToolDefinition } from '../../ports/tool-registry.js';
import type { ActAsPreset } from '../../ports/act-as.js';
import type { RISKS, VENUES } from '../../domain/guard/risk.js';
import type { LanguageModel } from 'ai';

const fn = <T>(what: string) => z.custom<T>((value) => typeof value === 'function', { message: `must be a function (${what})` });
const instance = <T>(what: string, probe: (value: Record<string, unknown>) => boolean) =>
  z.custom<T>((value) => typeof value === 'object' && value !== null && probe(value as Record<string, unknown>), { message: `must be ${what}` });

const mountPath = z
  .string()
  .regex(/^(\/[A-Za-z0-9._~-]+)+$/, 'must be a path like /api/porter (no trailing slash)');

/** The door's own authorization server. `principal(subject)` re-resolves a connected user per request. */
const oauthSchema = z.strictObject({
  principal: fn<(subject: string) => unknown>('oauth.principal(subject) → Principal | null'),
});

/** An external issuer that owns the door's OAuth endpoints. */
const remoteAsSchema = z.strictObject({
  issuer: z.url({ message: 'must be the issuer URL' }),
  jwksUri: z.url().optional(),
  audience: z.string().min(1).optional(),
});

const oneOrMany = <T extends z.ZodType>(schema: T) => z.union([schema, z.array(schema).min(1)]);

/** A host policy rule: every given field must match; the first matching rule wins. */
const policyRuleSchema = z.strictObject({
  tool: z.string().min(1).optional(),
  risk: oneOrMany(z.enum(['read', 'write', 'destructive'] satisfies typeof RISKS)).optional(),
  venue: oneOrMany(z.enum(['chat', 'app', 'automation', 'mcp'] satisfies typeof VENUES)).optional(),
  presence: z.enum(['present', 'away']).optional(),
  action: z.enum(['run', 'ask', 'block']),
});

const toolSchema = instance<ToolDefinition>('a tool ({ name, description, inputSchema, risk, execute })', (v) =>
  typeof v.name === 'string' && typeof v.execute === 'function' && typeof v.inputSchema === 'object' && ['read', 'write', 'destructive'].includes(v.risk as string),
);

const secretSchema = z.string().min(32, 'must be at least 32 characters');

/**
 * Every option a host may pass to `createPorter`, strict: an unknown key is a typo, not a wish.
 * Environment variables fill what the host left out (see loadConfig).
 */
export const configSchema = z
  .strictObject({
    mount: mountPath.default('/api/porter'),
    principal: fn<PrincipalResolver>('principal(req) → Principal | null').optional(),
    development: z.boolean().default(false),
    apps: z.boolean().default(true),
    automations: z.boolean().default(true),
    mcp: z.boolean().default(false),
    oauth: oauthSchema.optional(),
    remoteAs: remoteAsSchema.optional(),
    actAs: instance<ActAsPreset>('an act-as preset (actAs.authjs, actAs.hostedIdentity or actAs.jwt)', (v) => typeof v.mint === 'function' && typeof v.asHostSees === 'function').optional(),
    tools: z.array(toolSchema).default([]),
    policy: z.array(policyRuleSchema).default([]),
    model: instance<LanguageModel>('an AI SDK LanguageModel', (v) => typeof v.doStream === 'function' || typeof v.specificationVersion === 'string').optional(),
    instructions: z.string().max(100_000).optional(),
    maxSteps: z.number().int().min(1).max(50).default(8),
    approvalTtlSeconds: z.number().int().min(60).max(30 * 24 * 3600).default(24 * 3600),
    toolOutputCap: z.number().int().min(0).default(32_000),
    maxOutputTokens: z.number().int().min(1).optional(),
    historyWindow: z.number().int().min(1).optional(),
    databaseUrl: z.string().min(1).default('sqlite:.porter/porter.db'),
    store: instance<Store>('a Store (records, blobs, ping, close)', (v) => typeof v.records === 'function' && typeof v.blobs === 'function').optional(),
    baseUrl: z.url({ message: 'must be an absolute URL such as https://app.example.com' }).optional(),
    tickSecret: z.string().min(16, 'must be at least 16 characters').optional(),
    secret: z.union([secretSchema, z.array(secretSchema).min(1)]).optional(),
    trustProxy: z.boolean().default(false),
    logger: z
      .union([z.enum(['info', 'warn', 'error', 'silent']), instance<Logger>('a Logger (info, warn, error)', (v) => typeof v.error === 'function')])
      .default('info'),
  })
  .superRefine((config, ctx) => {
    if (config.mcp && !config.oauth && !config.remoteAs) {
      ctx.addIssue({ code: 'custom', path: ['oauth'], message: 'is required when `mcp` is true (or configure `remoteAs` for an external issuer)' });
    }
    if ((config.oauth || config.remoteAs) && !config.mcp) {
      ctx.addIssue({ code: 'custom', path: ['mcp'], message: 'must be true when `oauth` or `remoteAs` is configured (the door is closed otherwise)' });
    }
    if (!config.development && !config.secret) {
      ctx.addIssue({ code: 'custom', path: ['secret'], message: 'is required in production: set PORTER_SECRET (32+ characters) so anonymous-session cookies survive restarts and instances' });
    }
  });

export type PorterConfig = z.output<typeof configSchema>;
export type PorterOptions = z.input<typeof configSchema>;
