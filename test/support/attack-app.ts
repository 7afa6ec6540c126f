import type { SandboxFile } from '../../ports/sandbox.js';

/**
 * An app whose server code is an attacker's (what a signed-in person may write): each `POST
 * /fn/<name>` mounts one attack from inside its sandbox. Bounded, every one: the test machine must
 * survive them on a sandbox that holds nothing back.
 *
 * - `swap-links` {targets, names, ms}: a background process swaps each name in its folder between
 *   a decoy file and a link to one of the targets, as fast as it can, for `ms`
 * - `swap-dir` {name, target, ms}: the same with a folder and a link to a folder
 * - `probe`: what the sandbox lets it see and do (identity, /proc, nested namespaces, mounts)
 * - `plant-socket` {target}: replaces every socket path it can write with a link to `target`
 * - `fork` {count}: that many sleeping processes; `memory` {mb}: that much memory, kept;
 *   `disk` {mb, dir}: that much written under `dir`; `spin` {ms}: a process burning CPU for `ms`
 */
export function attackApp(label: string): SandboxFile[] {
  return [{ path: '/app/server.js', content: ATTACK_SERVER.replace('__LABEL__', JSON.stringify(label)) }];
}

// Files flip between a decoy and a link by rename (atomic: the name is always there); a folder is
// renamed aside and made again, as a real folder or as a link to a folder, as fast as the kernel allows.
const SWAPPER = `
const fs = require('node:fs');
const { mode, targets, names, name, target, ms } = JSON.parse(process.argv[1]);
const end = Date.now() + ms;
const quietly = (step) => { try { step(); } catch {} };
for (let i = 0; Date.now() < end; i++) {
  if (i === 2) process.stdout.write('swapping\\n');
  if (mode === 'links') {
    for (const [n, each] of names.entries()) {
      const aside = '.' + each + '.' + (i % 2);
      quietly(() => fs.rmSync(aside, { force: true }));
      quietly(() => ((i + n) % 2 ? fs.symlinkSync(targets[(i + n) % targets.length], aside) : fs.writeFileSync(aside, 'decoy ' + i)));
      quietly(() => fs.renameSync(aside, each));
    }
  } else {
    // Whatever the name is now (the host may have made it a folder again) goes aside in one rename.
    const aside = '.' + name + '.' + i;
    quietly(() => fs.renameSync(name, aside));
    quietly(() => (i % 2 ? fs.symlinkSync(target, name) : fs.mkdirSync(name)));
    quietly(() => fs.rmSync(aside, { recursive: true, force: true }));
  }
}
`;

const ATTACK_SERVER = `'use strict';
const http = require('node:http');
const fs = require('node:fs');
const path = require('node:path');
const { spawn, spawnSync } = require('node:child_process');
const label = __LABEL__;
const kept = [];
const read = (request) => new Promise((resolve) => { let body = ''; request.on('data', (c) => (body += c)); request.on('end', () => resolve(body ? JSON.parse(body) : {})); });
const reply = (response, value) => { response.writeHead(200, { 'content-type': 'application/json' }); response.end(JSON.stringify(value)); };
const opens = (file, flags) => { try { fs.closeSync(fs.openSync(file, flags)); return true; } catch (error) { return error.code; } };
// Answers once the swapper is flipping, so the host's next step races it.
const background = (args) => new Promise((resolve) => {
  const child = spawn(process.execPath, ['-e', ${JSON.stringify(SWAPPER)}, JSON.stringify(args)], { detached: true, stdio: ['ignore', 'pipe', 'ignore'] });
  child.stdout.once('data', () => resolve(true));
  child.once('exit', () => resolve(false));
  child.unref();
});
function processes() {
  return fs.readdirSync('/proc').filter((n) => /^\\d+$/.test(n)).map((pid) => {
    const stat = fs.readFileSync('/proc/' + pid + '/stat', 'utf8');
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    let cmdline = '';
    try { cmdline = fs.readFileSync('/proc/' + pid + '/cmdline', 'utf8').split('\\0').join(' ').trim(); } catch {}
    return { pid: Number(pid), ppid, cmdline };
  });
}
http.createServer(async (request, response) => {
  if (request.method === 'GET') return reply(response, { label });
  const body = await read(request);
  switch (request.url) {
    case '/fn/swap-links':
      return reply(response, { started: await background({ mode: 'links', targets: body.targets, names: body.names, ms: body.ms }) });
    case '/fn/swap-dir':
      return reply(response, { started: await background({ mode: 'dir', name: body.name, target: body.target, ms: body.ms }) });
    case '/fn/probe': {
      const unshare = spawnSync('unshare', ['-U', '-r', 'true'], { encoding: 'utf8' });
      return reply(response, {
        uid: process.getuid(),
        uidMap: fs.readFileSync('/proc/self/uid_map', 'utf8'),
        procSys: { corePattern: opens('/proc/sys/kernel/core_pattern', 'r+'), printk: opens('/proc/sys/kernel/printk', 'r+') },
        nestedUserNamespace: unshare.status === 0,
        processes: processes(),
        pid1Memory: opens('/proc/1/mem', 'r'),
        mountinfo: fs.readFileSync('/proc/self/mountinfo', 'utf8'),
      });
    }
    case '/fn/plant-socket': {
      const planted = [];
      for (const place of ['/run/porter/net/app.sock', '/app/app.sock', '/tmp/app.sock', path.join(process.cwd(), 'app.sock')]) {
        try { fs.rmSync(place, { force: true }); fs.symlinkSync(body.target, place); planted.push(place); } catch {}
      }
      return reply(response, { planted });
    }
    case '/fn/fork': {
      let spawned = 0, failed = 0;
      for (let i = 0; i < body.count; i++) {
        try { const child = spawn('/bin/sleep', ['30'], { stdio: 'ignore', detached: true }); child.on('error', () => failed++); child.unref(); spawned++; } catch { failed++; }
      }
      return reply(response, { spawned, failed });
    }
    case '/fn/memory': {
      for (let i = 0; i < body.mb / 16; i++) kept.push(Buffer.alloc(16 * 1024 * 1024, i % 255));
      return reply(response, { allocated: kept.length * 16 });
    }
    case '/fn/disk': {
      const chunk = Buffer.alloc(1024 * 1024, 7);
      let written = 0, error = null;
      try { for (; written < body.mb; written++) fs.writeFileSync(path.join(body.dir, 'fill-' + written), chunk); } catch (e) { error = e.code; }
      return reply(response, { written, error });
    }
    case '/fn/spin':
      spawn(process.execPath, ['-e', 'const end = Date.now() + ' + Number(body.ms) + '; while (Date.now() < end) {}'], { stdio: 'ignore' });
      return reply(response, { spinning: true });
    default:
      response.writeHead(404);
      return response.end();
  }
}).listen(Number(process.env.PORT), process.env.HOST);
`;
