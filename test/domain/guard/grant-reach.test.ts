import { expect } from 'chai';
import { Approval } from '../../../domain/guard/approval.js';
import { decide } from '../../../domain/guard/decide.js';
import { Grant, type StoredGrant } from '../../../domain/guard/grant.js';
import { grantFromApproval } from '../../../domain/guard/grant-from-approval.js';
import type { RuledCall } from '../../../domain/guard/tool-call.js';
import { ADA_STANDS_FOR_NOTES, ruledCall, T0 } from '../../support/guard-builders.js';

const milk = { automationId: 'atm_milk', name: 'Milk reminder' };

const call = (overrides: Partial<RuledCall> = {}): RuledCall => ruledCall({ input: {}, ...overrides });

const standing = (appliesTo?: Grant['appliesTo']) =>
  Grant.create({
    id: 'grt_1',
    ...ADA_STANDS_FOR_NOTES,
    ...(appliesTo ? { appliesTo } : {}),
    origin: { kind: 'approval', approvalId: 'apr_0' },
    createdAt: T0,
  });

describe('Grant reach: where a grant applies', () => {
  const automationGrant = standing({ kind: 'automation', ...milk });
  const runOf = (automationId: string) => call({ venue: 'automation', presence: 'away', session: 'run_1', automation: { automationId } });

  it('lets decide run a call of a run of its automation, and asks for every other venue or automation', () => {
    expect(decide(runOf('atm_milk'), [automationGrant], [])).to.deep.equal({ kind: 'run', because: 'grant', grantId: 'grt_1' });
    const elsewhere: Array<[string, RuledCall]> = [
      ['a chat', call()],
      ['an app', call({ venue: 'app', session: 'app_1' })],
      ['the door', call({ venue: 'mcp', presence: 'away', session: 'door_1' })],
      ['the door with consent evidence', call({ venue: 'mcp', presence: 'away', session: 'door_1', evidence: 'ev' })],
      ['a run of another automation', runOf('atm_bread')],
      ['an automation venue without an automation', call({ venue: 'automation', presence: 'away', session: 'run_1' })],
      ['an app that names the automation', call({ venue: 'app', session: 'app_1', automation: { automationId: 'atm_milk' } })],
      [
        'the door naming the automation',
        call({ venue: 'mcp', presence: 'away', session: 'door_1', automation: { automationId: 'atm_milk' } }),
      ],
    ];
    for (const [where, attempt] of elsewhere)
      expect(decide(attempt, [automationGrant], []), where).to.deep.equal({ kind: 'ask', because: 'risk' });
  });

  it('leaves a grant that applies anywhere covering chats and runs alike', () => {
    const anywhere = standing();
    expect(anywhere.appliesTo).to.deep.equal({ kind: 'anywhere' });
    expect(anywhere.covers(call())).to.equal(true);
    expect(anywhere.covers(runOf('atm_bread'))).to.equal(true);
    expect(anywhere.standsFor('atm_bread')).to.equal(true);
    expect(automationGrant.standsFor('atm_milk')).to.equal(true);
    expect(automationGrant.standsFor('atm_bread')).to.equal(false);
  });

  it("reads rows without appliesTo by their origin: an arming ask's grant applies to its automation, any other anywhere", () => {
    const row = (origin: StoredGrant['origin']): StoredGrant =>
      ({ ...standing().toPrimitives(), appliesTo: undefined, origin }) as unknown as StoredGrant;
    const fromAsk = Grant.fromPrimitives(row({ kind: 'automation', automationId: 'atm_milk', approvalId: 'apr_1' }));
    expect(fromAsk.appliesTo).to.deep.equal({ kind: 'automation', automationId: 'atm_milk' });
    expect(fromAsk.covers(call())).to.equal(false);
    expect(fromAsk.covers(runOf('atm_milk'))).to.equal(true);
    const remembered = Grant.fromPrimitives(row({ kind: 'approval', approvalId: 'apr_2' }));
    expect(remembered.appliesTo).to.deep.equal({ kind: 'anywhere' });
    expect(remembered.covers(call())).to.equal(true);
  });

  it("makes an arming ask's yes a standing grant for its automation, whatever was ticked", () => {
    const ask = Approval.park({
      id: 'apr_ask',
      call: call({ venue: 'automation', presence: 'away', session: 'atm_milk', automation: milk }),
      preview: 'p',
      now: T0,
      expiresAt: '2026-06-02T12:00:00.000Z',
    });
    expect(ask.asksForStandingGrant).to.equal(true);
    const approved = ask.approve(T0, { scope: 'exact', duration: 'session' });
    expect(approved.remember).to.equal(null);
    const grant = grantFromApproval(approved, () => 'grt_new', T0)!.toPrimitives();
    expect(grant).to.deep.include({
      scope: 'tool',
      duration: 'standing',
      session: null,
      inputDigest: null,
      appliesTo: { kind: 'automation', ...milk },
      origin: { kind: 'automation', automationId: 'atm_milk', approvalId: 'apr_ask' },
    });
  });

  it('leaves nothing behind a one-off yes, and a remembered one as asked', () => {
    const chat = Approval.park({ id: 'apr_chat', call: call(), preview: 'p', now: T0, expiresAt: '2026-06-02T12:00:00.000Z' });
    expect(grantFromApproval(chat.approve(T0, null), () => 'grt_x', T0)).to.equal(null);
    const remembered = grantFromApproval(chat.approve(T0, { scope: 'exact', duration: 'session' }), () => 'grt_x', T0)!.toPrimitives();
    expect(remembered).to.deep.include({
      scope: 'exact',
      inputDigest: 'd',
      duration: 'session',
      session: 'thr_1',
      appliesTo: { kind: 'anywhere' },
    });
  });
});
