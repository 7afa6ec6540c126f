import { expect } from 'chai';
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { devHost } from '../../support/dev-host-fixture.js';
import { LocalSandbox } from '../../../adapters/sandbox/local/local-sandbox.js';
import { processTree } from '../../support/process-tree.js';
import { eventually, processAlive } from '../../support/sandbox-apps.js';
import { scratchFolder } from '../../support/scratch-folder.js';

describe('deleting a graduated app on the local sandbox (through the development host)', function () {
  this.timeout(60_000);
  const root = scratchFolder('porter-deletion-', { each: true });

  it('DELETE /apps/:id stops its server and removes its directory and snapshots', async () => {
    const sandbox = new LocalSandbox({ root: root.path(), startTimeoutMs: 5_000 });
    const host = await devHost({ porter: { sandbox } });
    try {
      const ada = host.client.as('ada');
      const app = (await ada.json('POST', '/apps', { prompt: 'reading list' })).body;
      await ada.json('POST', `/apps/${app.id}/edit`, { instruction: 'add a server function named shelve' });
      expect((await ada.json('POST', `/apps/${app.id}/graduate`, {})).status).to.equal(200);
      expect((await ada.json('POST', `/apps/${app.id}/fn/shelve`, { book: 'Dune' })).status).to.equal(200);
      const servers = await processTree((await sandbox.open(app.id, { egress: null })).sandboxPid!);
      expect(servers.every(processAlive)).to.equal(true);
      expect(await readdir(join(root.path(), '.snapshots', app.id))).to.have.length.greaterThan(0);

      const deleted = await ada.json('DELETE', `/apps/${app.id}`);
      expect(deleted.status).to.be.within(200, 299);

      for (const place of [app.id, join('.snapshots', app.id), join('.run', app.id)]) {
        expect(await stat(join(root.path(), place)).catch(() => null), place).to.equal(null);
      }
      expect(await eventually(() => servers.every((pid) => !processAlive(pid)))).to.equal(true);
      expect((await ada.json('GET', `/apps/${app.id}`)).status).to.equal(404);
    } finally {
      await host.close();
    }
  });
});
