import { z } from 'zod';
import { waitInWords } from '../../../domain/usage/wait-in-words.js';
import { useSession } from './session.js';
import { useLoad } from './use-load.js';
import { wire } from './wire.js';

/**
 * What is left of each budget the deployment meters (`GET /usage`), so nobody meets a limit
 * unwarned: meters in the sidebar, and a line above the message box once a chat budget runs low.
 * Times are in words, in the browser's language ("in about 1 hour").
 */

const budget = z.object({
  used: z.number(),
  max: z.number(),
  remaining: z.number(),
  resetsAt: z.string().nullable(),
  retryAfter: z.number().nullable(),
});
type Budget = z.output<typeof budget>;
const usageReport = z.object({ budgets: z.record(z.string(), budget) });

const NAMES: Readonly<Record<string, string>> = {
  turns: 'Messages',
  tokens: 'Tokens',
  toolCalls: 'Tool calls',
  appGenerations: 'App generations',
  uploadBytes: 'Uploads',
  runs: 'Automation runs',
};

/** A budget is low at a fifth left: the meter turns amber, and a chat budget warns by the composer. */
const LOW_SHARE = 0.2;
/** What the composer warns about: the budgets a message spends. */
const CHAT_BUDGETS = ['turns', 'tokens'];

function useUsage() {
  const { epoch, threadsEpoch } = useSession();
  // Read again when a turn ends (threadsEpoch moves), and every half minute for the rest.
  return useLoad((signal) => wire('GET', '/usage', { schema: usageReport, signal }), [epoch, threadsEpoch], 30_000);
}

function amount(name: string, value: number): string {
  if (name === 'uploadBytes') {
    const megabytes = value / 1_000_000;
    return `${new Intl.NumberFormat(undefined, { maximumFractionDigits: megabytes < 10 ? 1 : 0 }).format(megabytes)} MB`;
  }
  return new Intl.NumberFormat().format(value);
}

/** "resets in about 1 hour" / "more in 42 seconds": when the next unit frees, in words. */
function whenMore(b: Budget, now: number): string | null {
  if (b.remaining === 0 && b.retryAfter !== null) return `more ${waitInWords(b.retryAfter, undefined)}`;
  if (b.used > 0 && b.resetsAt) return `frees up ${waitInWords((Date.parse(b.resetsAt) - now) / 1000, undefined)}`;
  return null;
}

function isLow(b: Budget): boolean {
  return b.remaining <= b.max * LOW_SHARE;
}

/** The sidebar's meters: one per budget; nothing when the deployment meters none. */
export function UsageMeters() {
  const usage = useUsage();
  const entries = Object.entries(usage.data?.budgets ?? {});
  if (entries.length === 0) return null;
  const now = Date.now();
  return (
    <section className="usage-meters" aria-labelledby="usage-heading">
      <h2 id="usage-heading" className="usage-heading">
        What’s left
      </h2>
      <ul>
        {entries.map(([name, b]) => {
          const label = NAMES[name] ?? name;
          const more = whenMore(b, now);
          return (
            <li key={name} className={`usage-budget${isLow(b) ? ' low' : ''}`} data-budget={name}>
              <span className="usage-name">{label}</span>
              <meter
                min={0}
                max={b.max}
                value={b.remaining}
                low={b.max * LOW_SHARE}
                high={b.max * 0.5}
                optimum={b.max}
                aria-label={`${label} left`}
              />
              <span className="usage-left">
                {amount(name, b.remaining)} of {amount(name, b.max)} left{more ? ` · ${more}` : ''}
              </span>
            </li>
          );
        })}
      </ul>
    </section>
  );
}

/** Above the message box: a line when a budget a message spends runs low (nothing otherwise). */
export function UsageWarning() {
  const usage = useUsage();
  const now = Date.now();
  const low = CHAT_BUDGETS.flatMap((name) => {
    const b = usage.data?.budgets[name];
    return b && isLow(b) ? [[name, b] as const] : [];
  });
  if (low.length === 0) return null;
  return (
    <p className="usage-warning" role="status" data-usage-warning>
      {low
        .map(([name, b]) => {
          const more = whenMore(b, now);
          const what = (NAMES[name] ?? name).toLowerCase();
          return b.remaining === 0
            ? `No ${what} left${more ? `: ${more}` : ''}`
            : `${amount(name, b.remaining)} of ${amount(name, b.max)} ${what} left${more ? `, ${more}` : ''}`;
        })
        .join(' · ')}
    </p>
  );
}
