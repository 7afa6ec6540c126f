import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { doorRpc, initializeRequest, postForm, tokenPairFor } from '../support/door-client.js';
import { devHostOn, ON_POSTGRESQL, ON_SQLITE, type HostStore } from '../support/host-stores.js';
import { developmentOAuth } from '../../composition/dev-host/dev-oauth.js';
import { FORGIVEN_REPLAYS } from '../../domain/door/token-family.js';

const ROUNDS = 10;

/** Where each race runs: SQLite (in memory, and a file) and PostgreSQL (skipped without PORTER_TEST_PG_URL). */
const DATABASES: ReadonlyArray<HostStore> = [
  { ...ON_SQLITE, name: 'SQLite in memory' },
  {
    name: 'SQLite file',
    open: async () => ({
      options: { env: { PORTER_DATABASE_URL: `sqlite:${join(mkdtempSync(join(tmpdir(), 'porter-grace-')), 'porter.db')}` } },
      close: async () => {},
    }),
  },
  ON_POSTGRESQL,
];

const refresh = (door: URL, clientId: string, token: string) =>
  postForm(`${door.href}/token`, { grant_type: 'refresh_token', refresh_token: token, client_id: clientId });

const works = async (door: URL, accessToken: string) => (await doorRpc(door.href, accessToken, initializeRequest())).status === 200;

for (const store of DATABASES) {
  for (const refreshGraceSeconds of [0, 10]) {
    describe(`The door's refresh rotation over HTTP on ${store.name} (refreshGraceSeconds: ${refreshGraceSeconds})`, function () {
      this.timeout(120_000);
      let door: URL;

      devHostOn(store, { porter: { oauth: { ...developmentOAuth(), refreshGraceSeconds } } }, (host) => {
        door = new URL(`${host.url}/api/porter/mcp`);
      });

      if (refreshGraceSeconds === 0) {
        it('answers one of two racing refreshes and refuses the other, revoking nothing', async () => {
          for (let round = 0; round < ROUNDS; round++) {
            const pair = await tokenPairFor(door, `racer${round}`);
            const answers = await Promise.all([0, 1].map(() => refresh(door, pair.clientId, pair.refresh_token)));
            const statuses = answers.map((a) => a.status).sort();
            expect(statuses, `round ${round}`).to.deep.equal([200, 400]);
            const winner = (await answers.find((a) => a.status === 200)!.json()) as { access_token: string; refresh_token: string };
            expect(await answers.find((a) => a.status === 400)!.json(), `round ${round}`).to.deep.include({ error: 'invalid_grant' });
            expect(await works(door, winner.access_token), `round ${round}: the winner's tokens still work`).to.equal(true);
            expect((await refresh(door, pair.clientId, winner.refresh_token)).status, `round ${round}: the family goes on`).to.equal(200);
          }
        });
      } else {
        it('forgives FORGIVEN_REPLAYS replays of a rotated refresh token; the next one revokes the family', async () => {
          const pair = await tokenPairFor(door, 'victim');
          const rotated = await refresh(door, pair.clientId, pair.refresh_token);
          expect(rotated.status).to.equal(200);
          const granted = [(await rotated.json()) as { access_token: string; refresh_token: string }];
          for (let i = 0; i < FORGIVEN_REPLAYS; i++) {
            const again = await refresh(door, pair.clientId, pair.refresh_token);
            expect(again.status, `replay ${i + 1}, inside the window, is forgiven`).to.equal(200);
            granted.push((await again.json()) as { access_token: string; refresh_token: string });
          }
          const thief = await refresh(door, pair.clientId, pair.refresh_token);
          expect(thief.status, 'the replay after those is refused').to.equal(400);
          expect(await thief.json()).to.deep.include({ error: 'invalid_grant' });
          for (const { access_token } of granted) expect(await works(door, access_token), 'the family is revoked').to.equal(false);
          for (const { refresh_token } of granted)
            expect((await refresh(door, pair.clientId, refresh_token)).status, 'the family is revoked').to.equal(400);
        });

        it('gives a stolen refresh token replayed twenty times at most FORGIVEN_REPLAYS pairs, then revokes the family', async () => {
          const pair = await tokenPairFor(door, 'stolen');
          const rotated = await refresh(door, pair.clientId, pair.refresh_token);
          expect(rotated.status).to.equal(200);
          const next = (await rotated.json()) as { access_token: string };
          const replays: number[] = [];
          for (let i = 0; i < 20; i++) replays.push((await refresh(door, pair.clientId, pair.refresh_token)).status);
          expect(replays.filter((status) => status === 200)).to.have.length.at.most(FORGIVEN_REPLAYS);
          expect(replays.slice(FORGIVEN_REPLAYS)).to.deep.equal(Array(20 - FORGIVEN_REPLAYS).fill(400));
          expect(await works(door, next.access_token), 'the family is revoked').to.equal(false);
        });
      }
    });
  }
}
