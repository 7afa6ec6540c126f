import { z } from 'zod';
import { defined } from '../../domain/defined.js';

export type CheckStatus = 'pass' | 'fail' | 'warn' | 'skip';

export interface CheckResult {
  readonly name: string;
  readonly status: CheckStatus;
  readonly message: string;
  /** What to change, for anything that did not pass. */
  readonly fix?: string;
}

export interface DoctorTarget {
  /** The host's origin, e.g. http://127.0.0.1:3000. */
  readonly origin: string;
  /** Where the host mounts Porter, e.g. /api/porter. */
  readonly mount: string;
  /** The subject the act-as check mints material for. */
  readonly subject?: string;
}

/** The host could not be reached or Porter does not answer there: nothing else can be checked. */
export class HostUnreachable extends Error {
  constructor(
    message: string,
    readonly fix: string,
  ) {
    super(message);
  }
}

const status = z.object({ version: z.string(), blocks: z.record(z.string(), z.unknown()) });
const baseUrl = z.object({ set: z.boolean() });
/** Porter's error envelope: what tells Porter's own failure from a host that is not Porter. */
const envelope = z.object({ error: z.object({ code: z.string(), message: z.string() }) });
const present = z.object({ baseUrlSet: z.boolean(), reached: z.boolean(), authorization: z.boolean(), cookie: z.boolean() });
const actAs = z.object({ configured: z.boolean(), minted: z.boolean(), accepted: z.boolean(), subjectMatches: z.boolean() });

/** Probe credentials for the present check: the echo only reports whether they arrived. */
const PROBE = { authorization: 'Bearer porter-doctor-probe', cookie: 'porter_doctor_probe=1' };

/** One check's findings: `fix` says what to change, for anything that did not pass. */
function findingsOf(name: string) {
  const finding =
    (status: CheckStatus) =>
    (message: string, fix?: string): CheckResult => ({ name, status, message, ...defined({ fix }) });
  return { pass: finding('pass'), warn: finding('warn'), fail: finding('fail'), skip: finding('skip') };
}

/**
 * The doctor's checks, run against a running host through its own doctor routes. Each answers
 * with booleans only, so nothing secret crosses; this turns them into findings with a fix.
 */
export async function runDoctor(target: DoctorTarget): Promise<CheckResult[]> {
  const wire = `${target.origin}${target.mount}`;
  const results: CheckResult[] = [];

  const reached = await call(wire, 'GET', '/status');
  const answered = status.safeParse(reached.body);
  const refused = envelope.safeParse(reached.body);
  const wireCheck = findingsOf('wire');
  let blocks: Record<string, unknown> | null = null;
  if (answered.success) {
    blocks = answered.data.blocks;
    results.push(wireCheck.pass(`Porter ${answered.data.version} answers at ${wire} (store ${String(blocks.store)})`));
  } else if (reached.status !== 404 && refused.success) {
    // Porter is there (its envelope), but /status resolves a principal: a resolver that throws, or
    // a store that is down, fails it. The doctor routes take no principal, so the checks go on.
    const { code, message } = refused.data.error;
    results.push(
      wireCheck.fail(
        `Porter answers at ${wire}, but GET ${target.mount}/status failed with HTTP ${reached.status} (${code}: ${message})`,
        code === 'internal'
          ? "Read the host's log for the cause: principal(req) must return a principal or null, never throw, and every wire route that resolves a principal fails the same way"
          : "Read the host's log for the cause",
      ),
    );
  } else {
    throw new HostUnreachable(
      `${target.origin} answers, but Porter does not answer at ${target.mount}/status (HTTP ${reached.status})`,
      reached.status === 401 || reached.status === 403
        ? "Something in front of Porter refuses the request: mount Porter before the host's sign-in middleware (Porter resolves the principal itself)"
        : 'Pass the path the host mounts Porter at with --mount (default /api/porter), or the right URL',
    );
  }

  const base = baseUrl.safeParse((await call(wire, 'GET', '/doctor/base-url')).body);
  const baseCheck = findingsOf('base-url');
  if (!base.success) {
    results.push(
      baseCheck.fail(
        'GET /doctor/base-url did not answer as Porter does',
        "Upgrade the host's Porter: every composition answers GET {mount}/doctor/base-url",
      ),
    );
  } else if (base.data.set) {
    results.push(baseCheck.pass("PORTER_BASE_URL is set: present tools forward the person's credentials to the host"));
  } else {
    results.push(
      baseCheck.fail(
        "PORTER_BASE_URL is not set: tools cannot call the host's API with the person's credentials (forwarding is off)",
        `Set PORTER_BASE_URL to the origin that serves this host, e.g. PORTER_BASE_URL=${target.origin}, and restart it`,
      ),
    );
  }

  results.push(blocks ? modelFinding(blocks) : findingsOf('model').skip(`not checked: GET ${target.mount}/status did not answer`));
  results.push(presentFinding(await call(wire, 'POST', '/doctor/present', {}, PROBE), target));
  results.push(actAsFinding(await call(wire, 'POST', '/doctor/act-as', target.subject ? { subject: target.subject } : {})));
  results.push(
    blocks
      ? connectionsFinding(blocks.connections)
      : findingsOf('connections').skip(`not checked: GET ${target.mount}/status did not answer`),
  );
  return results;
}

function presentFinding(answer: Answer, target: DoctorTarget): CheckResult {
  const check = findingsOf('present');
  if (answer.status === 404)
    return check.skip(
      'not checked: the host runs the production composition, where only base-url answers',
      'Run the doctor against a development composition (NODE_ENV=development) of the same host',
    );
  const found = present.safeParse(answer.body);
  if (!found.success) return check.fail(`POST /doctor/present answered HTTP ${answer.status}`, "Check the host's log for the error");
  const r = found.data;
  if (!r.baseUrlSet) return check.skip('not checked: forwarding is off without PORTER_BASE_URL');
  if (!r.reached)
    return check.fail(
      'the same-origin call Porter makes with PORTER_BASE_URL did not reach this host',
      `PORTER_BASE_URL must be the origin serving ${target.mount} as Porter itself can reach it (e.g. ${target.origin})`,
    );
  const lost = [!r.authorization && 'Authorization', !r.cookie && 'Cookie'].filter(Boolean);
  if (lost.length)
    return check.fail(
      `the same-origin call reached the host without its ${lost.join(' and ')} header`,
      `Something between Porter and the host drops ${lost.join(' and ')} (a proxy or a fetch wrapper): forward it unchanged`,
    );
  return check.pass("a present call reaches the host with the person's authorization and cookie");
}

function actAsFinding(answer: Answer): CheckResult {
  const check = findingsOf('act-as');
  if (answer.status === 404) return check.skip('not checked: the host runs the production composition');
  const found = actAs.safeParse(answer.body);
  if (!found.success) return check.fail(`POST /doctor/act-as answered HTTP ${answer.status}`, "Check the host's log for the error");
  const r = found.data;
  if (!r.configured)
    return check.warn(
      "no actAs preset: automations and the MCP door cannot call the host's API as a person",
      'Pass actAs to createPorter (actAs.authjs, actAs.hostedIdentity or actAs.jwt) if away calls need the host API',
    );
  if (!r.minted)
    return check.fail('the actAs preset could not mint material', "Check the preset's secret and settings (the host log says why)");
  if (!r.accepted)
    return check.fail(
      "the host's principal resolver did not accept the material the preset minted",
      'Make principal(req) accept what the preset mints: the same secret, issuer, audience and cookie or header name',
    );
  if (!r.subjectMatches)
    return check.fail(
      'the resolver accepted the material as a different subject',
      "principal(req) must return the subject the material names (the token's sub)",
    );
  return check.pass("material the actAs preset mints is accepted by the host's resolver as the same subject");
}

/**
 * Whether turns have a model, from `/status`: its `agent` is what a turn checks before it starts,
 * so a host without one is told here what every turn would answer (501 not-implemented).
 */
function modelFinding(blocks: Record<string, unknown>): CheckResult {
  const check = findingsOf('model');
  if (blocks.agent !== true)
    return check.fail(
      "no model is configured: every turn answers 501 not-implemented (the model ladder found no provider in the host's environment)",
      "Set OPENAI_API_KEY, ANTHROPIC_API_KEY or PORTER_MODEL_URL in the host's environment (PORTER_MODEL names the model), or pass `model` to createPorter; then restart the host",
    );
  if (blocks.model === 'custom') return check.pass("turns are answered by the host's own model (the `model` option)");
  return check.pass(
    "turns are answered by a model the model ladder picked from the host's environment (in development without a provider key, the offline scripted model)",
  );
}

function connectionsFinding(kind: unknown): CheckResult {
  const check = findingsOf('connections');
  if (kind === 'byo' || kind === 'cloud') return check.pass(`a connection broker is configured (${kind})`);
  return check.skip(
    'no connection broker: tools that act through a connected account cannot run',
    'Set NANGO_SECRET_KEY (+ NANGO_HOST), COMPOSIO_API_KEY, or PORTER_CONNECTIONS_URL + PORTER_CONNECTIONS_KEY if tools need third-party accounts',
  );
}

interface Answer {
  readonly status: number;
  readonly body: unknown;
}

async function call(wire: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Answer> {
  let response: Response;
  try {
    response = await fetch(`${wire}${path}`, {
      method,
      headers: {
        accept: 'application/json',
        ...defined({ 'content-type': body !== undefined ? 'application/json' : undefined }),
        ...headers,
      },
      ...defined({ body: body !== undefined ? JSON.stringify(body) : undefined }),
      signal: AbortSignal.timeout(15_000),
    });
  } catch (error) {
    const detail = (error as { cause?: { code?: string; message?: string } }).cause;
    const cause = detail?.code ?? detail?.message ?? (error as Error).message;
    throw new HostUnreachable(
      `could not reach ${new URL(wire).origin} (${cause})`,
      'Start the host (porter serve), or pass its URL: porter doctor https://app.example.com',
    );
  }
  const text = await response.text();
  try {
    return { status: response.status, body: text ? JSON.parse(text) : null };
  } catch {
    return { status: response.status, body: null };
  }
}
