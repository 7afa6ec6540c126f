import { EXIT, UsageError, type CliIo } from './cli-io.js';
import { HostUnreachable, runDoctor, type CheckResult, type CheckStatus } from './doctor-checks.js';
import type { Command } from './main.js';
import { defined } from '../../domain/defined.js';

/** `porter doctor`: the doctor checks against a running host, each with a fix. */
export const doctorCommand: Command = {
  name: 'doctor',
  summary: "check a running host's setup (base URL, model, credential forwarding, act-as) and say how to fix it",
  help: `Usage: porter doctor [url] [--mount <path>] [--subject <subject>] [--strict] [--json]

Runs Porter's doctor checks against a running host and prints each with a fix:
  wire         Porter answers at <url><mount>/status
  base-url     PORTER_BASE_URL is set (answered by every composition)
  model        turns have a model (without one, every turn answers 501 not-implemented)
  present      a same-origin call reaches the host with the person's authorization and cookie
  act-as       what the actAs preset mints, the host's principal resolver accepts as that subject
  connections  whether a connection broker is configured (informational)
present and act-as answer only in a development composition; against production they are skipped.

Arguments:
  url                  the host's URL (default: $PORTER_URL, else http://127.0.0.1:$PORT, else :3000);
                       a URL with a path names the wire itself (e.g. https://app.example.com/api/porter)

Options:
  --mount <path>       where the host mounts Porter (default /api/porter)
  --subject <subject>  the subject the act-as check mints material for (default porter-doctor)
  --strict             warnings fail too (exit 1)
  --json               print the findings as JSON`,
  options: { mount: { type: 'string' }, subject: { type: 'string' }, strict: { type: 'boolean' }, json: { type: 'boolean' } },
  async run(values, positionals, io) {
    if (positionals.length > 1) throw new UsageError(`unexpected argument "${positionals[1]}"`);
    const target = targetOf(
      positionals[0] ?? io.env.PORTER_URL ?? `http://127.0.0.1:${io.env.PORT || 3000}`,
      typeof values.mount === 'string' ? values.mount : undefined,
    );
    if (!values.json) io.err(`porter doctor: checking ${target.origin}${target.mount}…`);
    let results: CheckResult[];
    try {
      results = await runDoctor({ ...target, ...defined({ subject: typeof values.subject === 'string' ? values.subject : undefined }) });
    } catch (error) {
      if (!(error instanceof HostUnreachable)) throw error;
      if (values.json)
        io.out(JSON.stringify({ url: `${target.origin}${target.mount}`, reached: false, error: error.message, fix: error.fix }, null, 2));
      else io.err(`${mark('fail', io)} host: ${error.message}\n    fix: ${error.fix}`);
      return EXIT.usage;
    }
    const failed = results.some((r) => r.status === 'fail' || (values.strict && r.status === 'warn'));
    if (values.json) {
      io.out(JSON.stringify({ url: `${target.origin}${target.mount}`, reached: true, ok: !failed, checks: results }, null, 2));
    } else {
      for (const r of results)
        io.out(`${mark(r.status, io)} ${r.name.padEnd(11)} ${r.message}${r.fix && r.status !== 'pass' ? `\n    fix: ${r.fix}` : ''}`);
      const count = (s: CheckStatus) => results.filter((r) => r.status === s).length;
      io.out(`\n${count('pass')} passed, ${count('fail')} failed, ${count('warn')} warning(s), ${count('skip')} skipped`);
    }
    return failed ? EXIT.failed : EXIT.ok;
  },
};

function targetOf(raw: string, mount: string | undefined): { origin: string; mount: string } {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UsageError(`"${raw}" is not a URL (e.g. http://127.0.0.1:3000)`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError(`"${raw}" is not an http(s) URL`);
  if (url.username || url.password || url.search) throw new UsageError('the URL must not carry credentials or a query');
  const path = url.pathname.replace(/\/+$/, '');
  const chosen = mount ?? (path || '/api/porter');
  if (!/^(\/[A-Za-z0-9._~-]+)+$/.test(chosen)) throw new UsageError(`--mount must be a path like /api/porter, not "${chosen}"`);
  return { origin: url.origin, mount: chosen };
}

const SYMBOLS: Readonly<Record<CheckStatus, [string, string, string]>> = {
  pass: ['✓', 'ok  ', '32'],
  fail: ['✗', 'FAIL', '31'],
  warn: ['!', 'warn', '33'],
  skip: ['–', 'skip', '90'],
};

function mark(status: CheckStatus, io: CliIo): string {
  const [symbol, word, colour] = SYMBOLS[status];
  return io.tty ? `\u001b[${colour}m${symbol}\u001b[0m` : word;
}
