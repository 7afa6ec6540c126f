import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { strToU8, zipSync } from 'fflate';
import { tinyDocument } from './apps-documents.js';
import { createArmed } from './armed-automation.js';
import { deliverSigned } from './signed-delivery.js';
import { until as waitUntil } from './eventually.js';
import { textOf, toolPart, WireClient } from './turn-client.js';

/** Polls `read` until `done` holds (the run executes in the host's own process). */
const until = <T>(read: () => Promise<T>, done: (value: T) => boolean) => waitUntil(read, done, { timeoutMs: 20_000 });

/**
 * What every example host must carry end to end, through whatever framework mounts Porter: a turn
 * read by the AI SDK's own stream reader, an approval that runs the host tool once, a signed
 * webhook delivery that starts a run, and an app import. `wire` is the host's Porter URL; the
 * examples sign people in from the `x-user` header and register the webhook source `orders`.
 */
export async function runHostScenario(wire: string, webhookSecret: string): Promise<void> {
  const ada = new WireClient(wire, { 'x-user': 'ada' });

  const thread = await ada.newThread();
  const echoed = await ada.say(thread, 'hello from the host');
  expect(echoed.headers.get('x-vercel-ai-ui-message-stream')).to.equal('v1');
  expect(echoed.raw.trimEnd().endsWith('data: [DONE]')).to.equal(true);
  expect(textOf(echoed.message)).to.contain('echo: hello from the host');

  const asked = await ada.say(thread, '/call notes_add {"text":"milk"}');
  const approvalId = asked.chunks.find((chunk) => chunk.type === 'tool-approval-request')?.approvalId;
  expect(approvalId, 'the host tool (a write) asks first').to.be.a('string');
  const decided = await ada.json('POST', `/approvals/${approvalId}/decide`, { approve: true });
  expect(decided.status).to.equal(200);
  const ran = await ada.continueTurn(thread, asked.message);
  expect(toolPart(ran.message, 'notes_add')?.output).to.deep.equal({ added: 'milk', count: 1 });
  expect((await ada.json('GET', `/approvals/${approvalId}`)).body.state).to.equal('executed');

  const { created, armed } = await createArmed(ada, {
    name: 'on orders',
    trigger: { kind: 'webhook', source: 'orders' },
    task: { prompt: 'Summarise this order.' },
  });
  expect(created.status).to.equal(201);
  expect(armed.status).to.equal(200);
  const runIds = await deliverSigned(wire, 'orders', webhookSecret, '{"order":42}', `msg_${randomUUID()}`);
  expect(runIds).to.have.length(1);
  const run = await until(
    () => ada.json('GET', `/runs/${runIds[0]}`),
    (r) => r.body.state === 'succeeded',
  );
  expect(run.body.startedBy).to.equal('porter:webhook:orders');

  const archive = zipSync({ 'app.json': strToU8(JSON.stringify(tinyDocument())) });
  const imported = await fetch(`${wire}/apps/import`, {
    method: 'POST',
    headers: { 'content-type': 'application/vnd.porter.app', 'x-user': 'ada' },
    body: archive,
  });
  expect(imported.status).to.equal(201);
  const app = (await imported.json()) as { id: string };
  const opened = await ada.json('GET', `/apps/${app.id}/open`);
  expect(opened.status).to.equal(200);
  expect(opened.body.kind).to.equal('tree');
}
