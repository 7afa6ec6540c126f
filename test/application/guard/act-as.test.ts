import { expect } from 'chai';
import { jwtVerify } from 'jose';
import { ada, guardHarness, parkedId } from '../../support/guard-harness.js';
import { bearerSubject, recordingHost } from '../../support/recording-host.js';
import { rejection } from '../../support/outcomes.js';
import { hs256Jwt } from '../../../adapters/act-as/hs256-jwt.js';
import { BaseUrlHostApi } from '../../../adapters/host/base-url-host-api.js';
import type { ToolDefinition } from '../../../ports/tool-registry.js';
import type { ActAsPreset } from '../../../ports/act-as.js';

const SECRET = 'an-hs256-secret-that-is-long-enough-for-tests';

/** A host tool that calls the host's API, as real host tools do. */
const callsHost = (risk: ToolDefinition['risk']): ToolDefinition => ({
  name: 'host_call',
  description: 'calls the host',
  inputSchema: { type: 'object' },
  risk,
  async execute(_input, context) {
    const response = await context.hostFetch('/api/notes', { method: 'POST' });
    return { status: response.status };
  },
});

/** Runs `test` with a recording host and a guard harness whose one tool (of `risk`) calls it under `path`, through `actAs` if given; the host closes after. */
async function withHost(
  options: { risk: ToolDefinition['risk']; actAs?: ActAsPreset; path?: string },
  test: (h: ReturnType<typeof guardHarness>, host: Awaited<ReturnType<typeof recordingHost>>) => Promise<void>,
): Promise<void> {
  const host = await recordingHost();
  try {
    const base = options.path ? `${host.url}${options.path}` : host.url;
    await test(guardHarness({ tools: [callsHost(options.risk)], actAs: options.actAs, baseUrl: base }), host);
  } finally {
    await host.close();
  }
}

function countingPreset(inner: ActAsPreset): ActAsPreset & { mints: number } {
  const counting = {
    mints: 0,
    kind: inner.kind,
    get fingerprint() {
      return inner.fingerprint;
    },
    async mint(principal: Parameters<ActAsPreset['mint']>[0]) {
      counting.mints += 1;
      return inner.mint(principal);
    },
    asHostSees: inner.asHostSees,
  };
  return counting;
}

describe('act-as and present credentials', () => {
  it('acts as the user with minted material when away, never with forwarded credentials', async () => {
    await withHost({ risk: 'read', actAs: hs256Jwt({ secret: SECRET }) }, async (h, host) => {
      const result = await h.call(
        'host_call',
        {},
        {
          presence: 'away',
          venue: 'automation',
          session: 'run_1',
          credentials: { cookie: 'sid=inbound', authorization: 'Bearer inbound' },
        },
      );
      expect(result.status).to.equal('ran');
      const seen = host.requests[0]!.headers;
      expect(seen.cookie).to.equal(undefined);
      const token = String(seen.authorization).replace(/^Bearer /, '');
      expect(token).to.not.equal('inbound');
      const { payload } = await jwtVerify(token, new TextEncoder().encode(SECRET));
      expect(payload.sub).to.equal('ada');
    });
  });

  it("fails closed, audited, before any outbound call when the authority is someone else's", async () => {
    await withHost({ risk: 'read', actAs: hs256Jwt({ secret: SECRET }) }, async (h, host) => {
      const refused = await rejection(
        h.hostAccess.prepare({
          principal: ada,
          venue: 'mcp',
          presence: 'present',
          tool: 'host_call',
          authority: { subject: 'bob', grantId: 'grt_1' },
        }),
      );
      expect((refused as { details?: unknown }).details).to.deep.equal({ outcome: 'act-as-subject-mismatch' });
      expect((refused as { code?: string }).code).to.equal('forbidden');
      expect(host.requests).to.have.length(0);
      const events = (await h.auditLog.list('ada', {})).events;
      expect(events).to.have.length(1);
      expect(events[0]).to.deep.include({
        action: 'act-as.refused',
        outcome: 'act-as-subject-mismatch',
        details: { tool: 'host_call', grantId: 'grt_1' },
      });
    });
  });

  it('runs an approved door call through act-as, as the person who approved it', async () => {
    await withHost({ risk: 'write', actAs: hs256Jwt({ secret: SECRET }) }, async (h, host) => {
      const id = parkedId(await h.call('host_call', {}, { venue: 'mcp', session: 'ses_1' }));
      await h.decide.execute({ principal: ada, approvalId: id, approve: true });
      const loaded = await h.executeApproved.execute({ approvalId: id, principal: ada, signal: new AbortController().signal });
      expect(loaded?.status).to.equal('ran');
      expect(host.requests).to.have.length(1);
      expect(await bearerSubject(host.requests[0]!, SECRET)).to.equal('ada');
    });
  });

  it('caches material until expiry minus the safety margin, and re-mints when the secret rotates', async () => {
    let secret = SECRET;
    const preset = countingPreset(hs256Jwt({ secret: () => secret, ttlSeconds: 120 }));
    const h = guardHarness({ tools: [], actAs: preset });
    h.clock.set(Date.now());
    await h.seam.materialFor(ada, null, 't');
    await h.seam.materialFor(ada, null, 't');
    expect(preset.mints).to.equal(1);
    h.clock.advance(95_000);
    await h.seam.materialFor(ada, null, 't');
    expect(preset.mints).to.equal(2);
    secret = `${SECRET}-rotated`;
    await h.seam.materialFor(ada, null, 't');
    expect(preset.mints).to.equal(3);
  });

  it('answers not-implemented when act-as is needed but not configured', async () => {
    await withHost({ risk: 'read' }, async (h, host) => {
      const result = await h.call('host_call', {}, { presence: 'away', venue: 'automation', session: 'run_1' });
      expect(result).to.deep.include({ status: 'failed', code: 'not-implemented' });
      expect(host.requests).to.have.length(0);
    });
  });

  it("forwards the person's cookie and authorization to PORTER_BASE_URL when present", async () => {
    await withHost({ risk: 'read' }, async (h, host) => {
      await h.call('host_call', {}, { credentials: { cookie: 'sid=abc', authorization: 'Bearer user-token' } });
      expect(host.requests[0]!.headers).to.deep.include({ cookie: 'sid=abc', authorization: 'Bearer user-token' });
      expect(host.requests[0]!.url).to.equal('/api/notes');
    });
  });

  it('without PORTER_BASE_URL forwards nothing and audits present-credentials-not-forwarded exactly once per boot', async () => {
    const h = guardHarness({ tools: [callsHost('read')] });
    for (let i = 0; i < 3; i++) {
      const result = await h.call('host_call', {}, { credentials: { cookie: 'sid=abc' } });
      expect(result).to.deep.include({ status: 'failed', code: 'not-implemented' });
    }
    const events = (await h.auditLog.list('ada', {})).events.filter((e) => e.outcome === 'present-credentials-not-forwarded');
    expect(events).to.have.length(1);
  });

  it('does not let a failing audit sink block or break the call', async () => {
    const host = await recordingHost();
    try {
      const failingSink = { write: async () => Promise.reject(new Error('sink down')) };
      const withHost = guardHarness({
        tools: [callsHost('read')],
        actAs: hs256Jwt({ secret: SECRET }),
        baseUrl: host.url,
        auditSink: failingSink,
      });
      const refused = await rejection(
        withHost.hostAccess.prepare({
          principal: ada,
          venue: 'mcp',
          presence: 'present',
          tool: 'host_call',
          authority: { subject: 'bob' },
        }),
      );
      expect((refused as { code?: string }).code).to.equal('forbidden');
      expect(host.requests).to.have.length(0);

      const withoutHost = guardHarness({ tools: [callsHost('read')], auditSink: failingSink });
      const result = await withoutHost.call('host_call', {}, { credentials: { cookie: 'x=1' } });
      expect(result).to.deep.include({ status: 'failed', code: 'not-implemented' });
      expect(withoutHost.logger.text()).to.contain('sink down');
    } finally {
      await host.close();
    }
  });

  it("calls the host under PORTER_BASE_URL's own path", async () => {
    await withHost({ risk: 'read', path: '/app/' }, async (h, host) => {
      await h.call('host_call', {});
      expect(host.requests[0]!.url).to.equal('/app/api/notes');
    });
  });

  it('gives up on a host call that hangs', async () => {
    const { createServer } = await import('node:http');
    const silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = silent.address() as { port: number };
      let error: unknown;
      try {
        await new BaseUrlHostApi(`http://127.0.0.1:${port}`, 50).fetch('/slow', {});
      } catch (caught) {
        error = caught;
      }
      expect((error as Error).name).to.be.oneOf(['TimeoutError', 'AbortError']);
    } finally {
      silent.closeAllConnections();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  });

  it("keeps host calls on the base URL's origin", async () => {
    const api = new BaseUrlHostApi('http://127.0.0.1:9/app');
    let error: unknown;
    try {
      await api.fetch('https://evil.example/steal', {});
    } catch (e) {
      error = e;
    }
    expect(String(error)).to.contain('origin');
  });
});
