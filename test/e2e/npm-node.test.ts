import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import semver from 'semver';
import { freePort } from '../support/http-server.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const MANIFEST = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  engines: { node: string };
  devDependencies: Record<string, string>;
};

/** The PATH of someone who has only the machine's own Node and npm: no project's node_modules/.bin on it. */
const MACHINE_PATH = (process.env.PATH ?? '')
  .split(delimiter)
  .filter((entry) => !entry.includes('node_modules'))
  .join(delimiter);

describe("The project's Node: npm start and npm test run on the Node package.json pins (node_modules/.bin/node)", function () {
  this.timeout(90_000);

  it('runs the tests on a Node its engines range allows', () => {
    expect(semver.satisfies(process.version, MANIFEST.engines.node), `${process.version} against ${MANIFEST.engines.node}`).to.equal(true);
  });

  it("npm start runs the development host on the pinned Node, whatever Node the machine's PATH finds first", async () => {
    const pinned = MANIFEST.devDependencies.node;
    expect(pinned, 'a pinned node devDependency').to.match(/^\d+\.\d+\.\d+$/);
    const port = await freePort();
    const child = spawn('npm', ['start'], {
      cwd: ROOT,
      env: {
        PATH: MACHINE_PATH,
        HOME: process.env.HOME,
        PORT: String(port),
        PORTER_DATABASE_URL: 'memory:',
        PORTER_SECRET: 'a-secret-for-the-node-version-test-0123456789',
      },
      detached: true,
    });
    let output = '';
    try {
      const said = await new Promise<string>((resolve, reject) => {
        const heard = (chunk: Buffer) => {
          output += chunk.toString();
          if (/listening on .*, on Node v\S+/.test(output)) resolve(output);
        };
        child.stdout.on('data', heard);
        child.stderr.on('data', heard);
        child.once('close', (code) => reject(new Error(`npm start exited (${code}) before it listened:\n${output}`)));
      });
      expect(/, on Node (v\S+)/.exec(said)?.[1]).to.equal(`v${pinned}`);
    } finally {
      // npm, sh, tsx and the host: the whole group.
      if (child.pid) process.kill(-child.pid, 'SIGTERM');
    }
  });
});
