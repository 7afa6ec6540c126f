import { expect } from 'chai';
import { toEnvelope } from '../../../adapters/http/error-envelope.js';
import { StoredShapeInvalid } from '../../../application/shared/stored-shape-invalid.js';
import type { ApprovalPrimitives } from '../../../domain/guard/approval.js';
import { RecordingLogger } from '../../support/fakes.js';
import { ada, countingTool, guardHarness, parkedId } from '../../support/guard-harness.js';
import { rejection } from '../../support/outcomes.js';

describe('A stored approval whose shape drifted', () => {
  async function drifted() {
    const h = guardHarness({ tools: [countingTool('notes_add', 'write').tool] });
    const approvalId = parkedId(await h.call('notes_add', { text: 'milk' }));
    const records = h.store.records<ApprovalPrimitives>('approvals');
    const stored = (await records.get(approvalId))!;
    // As a missed migration would leave it: a state no approval has, the request's tool gone.
    const { tool: _dropped, ...request } = stored.data.request;
    await records.put({
      id: approvalId,
      data: { ...stored.data, state: 'maybe', request } as unknown as ApprovalPrimitives,
      refs: stored.refs,
    });
    return { h, approvalId };
  }

  it('fails reading it by id with an error naming the collection, the id and what is wrong', async () => {
    const { h, approvalId } = await drifted();
    const error = await rejection(h.get.execute({ principal: ada, approvalId }));
    expect(error).to.be.instanceOf(StoredShapeInvalid);
    const invalid = error as StoredShapeInvalid;
    expect(invalid.collection).to.equal('approvals');
    expect(invalid.id).to.equal(approvalId);
    expect(invalid.message).to.include(`approvals/${approvalId}`).and.include('state').and.include('request.tool');
  });

  it('fails a list that reaches it, and deciding it leaves it untouched', async () => {
    const { h, approvalId } = await drifted();
    expect(await rejection(h.list.execute({ principal: ada }))).to.be.instanceOf(StoredShapeInvalid);
    expect(await rejection(h.decide.execute({ principal: ada, approvalId, approve: true }))).to.be.instanceOf(StoredShapeInvalid);
    expect((await h.store.records<ApprovalPrimitives>('approvals').get(approvalId))!.data.state).to.equal('maybe');
  });

  it('is a server bug on the wire: 500 internal, logged with the record it names', async () => {
    const { h, approvalId } = await drifted();
    const logger = new RecordingLogger();
    const answer = toEnvelope(await rejection(h.get.execute({ principal: ada, approvalId })), logger);
    expect(answer.status).to.equal(500);
    expect(answer.body.error.code).to.equal('internal');
    expect(answer.body.error.message).to.not.include(approvalId);
    expect(logger.entries.filter((entry) => entry.level === 'error').map((entry) => String(entry.fields?.cause))).to.satisfy(
      (causes: string[]) => causes.some((cause) => cause.includes(`approvals/${approvalId}`)),
    );
  });
});
