import { expect } from 'chai';
import { createArmed } from '../support/armed-automation.js';
import type { DevHostFixture } from '../support/dev-host-fixture.js';
import { devHostOn, ON_POSTGRESQL, ON_SQLITE } from '../support/host-stores.js';
import { until } from '../support/eventually.js';
import type { WireClient } from '../support/turn-client.js';
import { deliverWebhook } from '../support/webhook-delivery.js';

const DEMO_SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
type Pending = { id: string; kind: string; label: string; undoUntil: string };

/** Where each run's development host stores: SQLite in memory, and a fresh PostgreSQL database when the run has one. */
const STORES = [ON_SQLITE, ON_POSTGRESQL];

for (const store of STORES) {
  describe(`deleting with a way back over the wire (${store.name})`, function () {
    this.timeout(60_000);
    let host: DevHostFixture | undefined;
    let ada: WireClient;
    let bob: WireClient;

    devHostOn(store, { env: { PORTER_WEBHOOK_DEMO_SECRET: DEMO_SECRET }, porter: { undoSeconds: 3 } }, (started) => {
      host = started;
      ada = started.client.as('ada');
      bob = started.client.as('bob');
    });

    it('an automation deleted with a way back does not fire while pending, and fires again once undone', async () => {
      const { created } = await createArmed(ada, {
        name: 'On delivery',
        trigger: { kind: 'webhook', source: 'demo' },
        task: { prompt: 'say hello' },
      });
      const [before] = (await deliverWebhook(host!.client.base, 'demo', DEMO_SECRET, '{"n":0}')).runIds;
      await until(
        () => ada.json<{ state: string }>('GET', `/runs/${before}`),
        (r) => r.body.state === 'succeeded',
      );
      const deleted = await ada.json<Pending>('POST', '/deletions', { kind: 'automation', id: created.body.id });
      expect(deleted.status).to.equal(201);
      expect(deleted.body).to.deep.include({ id: created.body.id, kind: 'automation', label: 'On delivery' });
      expect((await deliverWebhook(host!.client.base, 'demo', DEMO_SECRET, '{"n":1}')).runIds).to.deep.equal([]);
      expect((await bob.json('POST', `/deletions/${created.body.id}/undo`, {})).status).to.equal(404);
      // Out of use by hand too: it cannot be run now, dry-run, armed, changed, nor an earlier run run again.
      const id = created.body.id as string;
      for (const [method, path, body] of [
        ['POST', `/automations/${id}/run`, {}],
        ['POST', `/automations/${id}/dry-run`, {}],
        ['POST', `/automations/${id}/arm`, {}],
        ['PATCH', `/automations/${id}`, { name: 'Renamed while deleted' }],
      ] as const) {
        expect((await ada.json(method, path, body)).status, `${method} ${path}`).to.equal(404);
      }
      const { runs } = (await ada.json<{ runs: Array<{ id: string }> }>('GET', `/runs?automationId=${id}`)).body;
      expect(runs, 'runs before the deletion').to.have.length.greaterThan(0);
      expect((await ada.json('POST', `/runs/${runs[0]!.id}/rerun`, {})).status).to.equal(409);

      const undone = await ada.json<Pending>('POST', `/deletions/${created.body.id}/undo`, {});
      expect(undone.status).to.equal(200);
      expect((await deliverWebhook(host!.client.base, 'demo', DEMO_SECRET, '{"n":2}')).runIds).to.have.length(1);
      expect((await ada.json('DELETE', `/automations/${created.body.id}`)).status).to.equal(204);
    });

    it('a thread leaves the list at once, stays readable until the window closes, and is deleted by the server after it', async () => {
      const threadId = await ada.newThread();
      await ada.say(threadId, 'plans for the release');
      // Someone else's thread, or an id of another kind, names nothing.
      expect((await bob.json('POST', '/deletions', { kind: 'thread', id: threadId })).status).to.equal(404);
      expect((await ada.json('POST', '/deletions', { kind: 'app', id: threadId })).status).to.equal(404);

      const { body: pending } = await ada.json<Pending>('POST', '/deletions', { kind: 'thread', id: threadId });
      expect(pending.kind).to.equal('thread');
      const listed = await ada.json<{ threads: Array<{ id: string }> }>('GET', '/threads');
      expect(listed.body.threads.map((t) => t.id)).to.not.include(threadId);
      expect((await ada.json<{ deletions: Pending[] }>('GET', '/deletions')).body.deletions).to.deep.equal([pending]);
      expect((await bob.json<{ deletions: Pending[] }>('GET', '/deletions')).body.deletions).to.deep.equal([]);
      expect((await ada.json('GET', `/threads/${threadId}`)).status).to.equal(200);

      const gone = await until(
        () => ada.json('GET', `/threads/${threadId}`),
        (answer) => answer.status === 404,
        { what: 'the thread to be deleted after its window' },
      );
      expect(gone.status).to.equal(404);
      expect(Date.now()).to.be.at.least(Date.parse(pending.undoUntil));
      // The thread goes first, then its pending deletion: an undo in between is told it is too late
      // (409), and once the purge has forgotten it there is nothing to undo (404).
      const late = await until(
        () => ada.json<{ error: { code: string } }>('POST', `/deletions/${threadId}/undo`, {}),
        (answer) => answer.status !== 409,
        { what: 'the pending deletion to be forgotten once purged' },
      );
      expect(late.status).to.equal(404);
      expect((await ada.json<{ deletions: Pending[] }>('GET', '/deletions')).body.deletions).to.deep.equal([]);
    });
  });
}
