import { expect } from 'chai';
import { createHmac } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { StandardWebhooksVerifier, mintStandardWebhookSecret } from '../../../adapters/webhooks/standard-webhooks-verifier.js';
import { GitHubVerifier } from '../../../adapters/webhooks/github-verifier.js';
import { StripeVerifier } from '../../../adapters/webhooks/stripe-verifier.js';

const body = (text: string) => new TextEncoder().encode(text);
const seconds = (date: Date) => String(Math.floor(date.getTime() / 1000));

/** Headers exactly as the `standardwebhooks` library signs a message. */
function signed(secret: string, id: string, at: Date, payload: string) {
  return { 'webhook-id': id, 'webhook-timestamp': seconds(at), 'webhook-signature': new Webhook(secret).sign(id, at, payload) };
}

describe('Webhook verifiers', () => {
  const now = new Date('2026-06-01T12:00:00.000Z');

  describe('Standard Webhooks (self-minted sources)', () => {
    const secret = mintStandardWebhookSecret();
    const verifier = new StandardWebhooksVerifier(secret);
    const payload = '{"event":"ping"}';

    it('verifies a delivery the standardwebhooks library signed, keyed by its webhook-id', () => {
      expect(secret).to.match(/^whsec_[A-Za-z0-9+/]+=*$/);
      const delivery = { source: 'demo', headers: signed(secret, 'msg_1', now, payload), body: body(payload) };
      expect(verifier.verify(delivery, now)).to.deep.equal({ ok: true, deliveryId: 'msg_1' });
      // On the wall clock, the library's own verify and ours agree.
      const live = signed(secret, 'msg_live', new Date(), payload);
      expect(() => new Webhook(secret).verify(payload, live)).to.not.throw();
      expect(verifier.verify({ source: 'demo', headers: live, body: body(payload) }, new Date())).to.deep.equal({
        ok: true,
        deliveryId: 'msg_live',
      });
    });

    it('refuses a tampered body, a tampered id and a signature by another secret', () => {
      const headers = signed(secret, 'msg_1', now, payload);
      expect(verifier.verify({ source: 'demo', headers, body: body('{"event":"pong"}') }, now)).to.deep.equal({
        ok: false,
        reason: 'bad-signature',
      });
      expect(verifier.verify({ source: 'demo', headers: { ...headers, 'webhook-id': 'msg_2' }, body: body(payload) }, now)).to.deep.equal({
        ok: false,
        reason: 'bad-signature',
      });
      const foreign = signed(mintStandardWebhookSecret(), 'msg_1', now, payload);
      expect(verifier.verify({ source: 'demo', headers: foreign, body: body(payload) }, now)).to.deep.equal({
        ok: false,
        reason: 'bad-signature',
      });
    });

    it('refuses timestamps outside five minutes either way, and accepts them just inside', () => {
      for (const [offset, ok] of [
        [-301_000, false],
        [301_000, false],
        [-299_000, true],
        [299_000, true],
      ] as const) {
        const at = new Date(now.getTime() + offset);
        const verdict = verifier.verify({ source: 'demo', headers: signed(secret, 'msg_t', at, payload), body: body(payload) }, now);
        expect(verdict.ok, `offset ${offset}`).to.equal(ok);
        if (!ok) expect(verdict).to.deep.equal({ ok: false, reason: 'stale-timestamp' });
      }
    });

    it('accepts any of several signatures (the sender rotating) and any of several secrets (we are rotating)', () => {
      const next = mintStandardWebhookSecret();
      const old = signed(secret, 'msg_r', now, payload)['webhook-signature'];
      const fresh = signed(next, 'msg_r', now, payload)['webhook-signature'];
      const both = { 'webhook-id': 'msg_r', 'webhook-timestamp': seconds(now), 'webhook-signature': `${fresh} ${old}` };
      expect(verifier.verify({ source: 'demo', headers: both, body: body(payload) }, now).ok).to.equal(true);
      const rotating = new StandardWebhooksVerifier([next, secret]);
      expect(rotating.verify({ source: 'demo', headers: signed(secret, 'msg_r', now, payload), body: body(payload) }, now).ok).to.equal(
        true,
      );
      expect(rotating.verify({ source: 'demo', headers: signed(next, 'msg_r', now, payload), body: body(payload) }, now).ok).to.equal(true);
    });

    it('refuses a delivery without its three headers', () => {
      const headers = signed(secret, 'msg_1', now, payload);
      for (const missing of ['webhook-id', 'webhook-timestamp', 'webhook-signature'] as const) {
        const partial: Record<string, string | undefined> = { ...headers, [missing]: undefined };
        expect(verifier.verify({ source: 'demo', headers: partial, body: body(payload) }, now)).to.deep.equal({
          ok: false,
          reason: 'missing-headers',
        });
      }
    });
  });

  describe('GitHub (X-Hub-Signature-256)', () => {
    const verifier = new GitHubVerifier('a-github-webhook-secret');
    const payload = '{"action":"opened"}';
    const sign = (key: string, text: string) => `sha256=${createHmac('sha256', key).update(text).digest('hex')}`;

    it("verifies GitHub's signature and takes X-GitHub-Delivery as the delivery id", () => {
      const headers = {
        'x-hub-signature-256': sign('a-github-webhook-secret', payload),
        'x-github-delivery': '72d3162e-cc78-11e3-81ab-4c9367dc0958',
      };
      expect(verifier.verify({ source: 'gh', headers, body: body(payload) })).to.deep.equal({
        ok: true,
        deliveryId: '72d3162e-cc78-11e3-81ab-4c9367dc0958',
      });
    });

    it('refuses a wrong secret, a tampered body and a missing delivery id', () => {
      const good = sign('a-github-webhook-secret', payload);
      expect(
        verifier.verify({
          source: 'gh',
          headers: { 'x-hub-signature-256': sign('another-secret-entirely', payload), 'x-github-delivery': 'd' },
          body: body(payload),
        }).ok,
      ).to.equal(false);
      expect(
        verifier.verify({ source: 'gh', headers: { 'x-hub-signature-256': good, 'x-github-delivery': 'd' }, body: body(`${payload} `) }).ok,
      ).to.equal(false);
      expect(verifier.verify({ source: 'gh', headers: { 'x-hub-signature-256': good }, body: body(payload) })).to.deep.equal({
        ok: false,
        reason: 'missing-headers',
      });
    });
  });

  describe('Stripe (Stripe-Signature)', () => {
    const secret = 'whsec_test_stripe_endpoint_secret';
    const verifier = new StripeVerifier(secret);
    const payload = '{"id":"evt_1NG8Du2eZvKYlo2CUI79vXWy","type":"invoice.paid"}';
    const header = (at: Date, ...keys: string[]) =>
      [
        `t=${seconds(at)}`,
        ...keys.map(
          (key) =>
            `v1=${createHmac('sha256', key)
              .update(`${seconds(at)}.${payload}`)
              .digest('hex')}`,
        ),
      ].join(',');

    it("verifies Stripe's scheme and takes the event id as the delivery id; several v1 entries are fine", () => {
      expect(
        verifier.verify({ source: 'pay', headers: { 'stripe-signature': header(now, secret) }, body: body(payload) }, now),
      ).to.deep.equal({ ok: true, deliveryId: 'evt_1NG8Du2eZvKYlo2CUI79vXWy' });
      expect(
        verifier.verify(
          { source: 'pay', headers: { 'stripe-signature': header(now, 'whsec_rolled_over_secret_xx', secret) }, body: body(payload) },
          now,
        ).ok,
      ).to.equal(true);
    });

    it('refuses a stale timestamp and a signature by another secret', () => {
      expect(
        verifier.verify(
          { source: 'pay', headers: { 'stripe-signature': header(new Date(now.getTime() - 6 * 60_000), secret) }, body: body(payload) },
          now,
        ),
      ).to.deep.equal({ ok: false, reason: 'stale-timestamp' });
      expect(
        verifier.verify(
          { source: 'pay', headers: { 'stripe-signature': header(now, 'whsec_someone_else_entirely') }, body: body(payload) },
          now,
        ),
      ).to.deep.equal({ ok: false, reason: 'bad-signature' });
    });
  });
});
