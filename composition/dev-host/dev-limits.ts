import { limitsSchema } from '../config/config-schema.js';
import { PorterConfigError } from '../config/porter-config-error.js';
import { optionIssues } from '../config/option-issues.js';
import type { UsageLimits } from '../config/porter-options.js';

/** Longer than any real `limits` JSON; refused before it is parsed. */
const MAX_LIMITS_JSON = 4096;

/**
 * `PORTER_LIMITS`: the development host's `limits`, the same JSON the option takes, e.g.
 * `{"turns":{"max":20,"windowSeconds":3600}}`, so limits can be tried by hand. Unset or empty:
 * none. JSON that does not parse, or does not describe budgets, stops the start with a
 * PorterConfigError naming the variable (the value is never echoed).
 */
export function limitsFromEnvironment(env: NodeJS.ProcessEnv): UsageLimits | undefined {
  const raw = env.PORTER_LIMITS;
  if (raw === undefined || raw.trim() === '') return undefined;
  const option = 'limits (from PORTER_LIMITS)';
  if (raw.length > MAX_LIMITS_JSON) {
    throw new PorterConfigError([{ option, message: `is longer than ${MAX_LIMITS_JSON} characters` }]);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new PorterConfigError([
      {
        option,
        message: 'is not valid JSON; write e.g. {"turns":{"max":20,"windowSeconds":3600},"tokens":{"max":100000,"windowSeconds":86400}}',
      },
    ]);
  }
  const checked = limitsSchema.safeParse(parsed);
  if (!checked.success) {
    throw new PorterConfigError(
      optionIssues(limitsSchema, parsed, checked.error.issues, ['limits']).map((issue) => ({
        option: `${issue.path.join('.')} (from PORTER_LIMITS)`,
        message: issue.message,
      })),
    );
  }
  return checked.data;
}
