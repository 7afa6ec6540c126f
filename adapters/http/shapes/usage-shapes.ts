import { z } from 'zod';

export const BudgetUsage = z
  .object({
    used: z.number().int().describe('Units counted in the current window (tokens for `tokens`).'),
    max: z.number().int(),
    windowSeconds: z.number().int().nullable(),
    remaining: z.number().int(),
    resetsAt: z.string().nullable().describe('When the oldest unit still counted frees; null when nothing is counted.'),
    retryAfter: z.number().int().nullable().describe('Seconds until a unit frees, when none is left; null otherwise.'),
  })
  .meta({ id: 'BudgetUsage' });

const Budgets = z.object({
  turns: BudgetUsage.optional(),
  tokens: BudgetUsage.optional(),
  toolCalls: BudgetUsage.optional(),
  appGenerations: BudgetUsage.optional(),
  uploadBytes: BudgetUsage.optional(),
  runs: BudgetUsage.optional(),
  embeddingTokens: BudgetUsage.optional(),
});

export const UsageReport = z
  .object({
    budgets: Budgets.describe('Each budget the deployment meters (its `limits` option); empty when it sets none.'),
    addressBudgets: Budgets.optional().describe(
      'For an anonymous session, when the deployment shares budgets per address (`limits.anonymousPerAddress`): what every anonymous session calling from its address used together.',
    ),
  })
  .meta({ id: 'UsageReport', description: "The caller's usage of each budget over its rolling window." });
