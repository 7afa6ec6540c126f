/* global require, process, Buffer */
/* eslint-disable @typescript-eslint/no-require-imports -- runs as plain CommonJS inside the app's network namespace */
/**
 * The only doors of an app sandbox that runs in its own network namespace (see namespace-link.ts).
 * Started first inside the namespace, it brings loopback up, opens the doors, then boots the app
 * server as its child:
 *
 * - out: 127.0.0.1:<proxyPort> inside the namespace → the host's egress proxy on a Unix socket
 *   (each connection first presents the proxy's token and waits for its `+`);
 * - in: a Unix socket → the server's 127.0.0.1:$PORT, which is how Porter reaches the app;
 * - probe: a Unix socket that answers `1` when the server accepts connections on $PORT, else `0`.
 *
 * Unix sockets work across the namespace boundary because the filesystem is shared (under bubblewrap,
 * their folder is bound into the sandbox); loopback is not.
 * Its settings (the token among them) arrive as one JSON document on stdin, never in argv or the
 * environment. Plain CommonJS with no dependencies, run without the app's NODE_OPTIONS.
 */
'use strict';

const net = require('node:net');
const fs = require('node:fs');
const { spawn, spawnSync } = require('node:child_process');
const { constants } = require('node:os');

const LOOPBACK = '127.0.0.1';

function fail(message) {
  process.stderr.write(`porter sandbox gate: ${message}\n`);
  process.exit(70);
}

function readSettings() {
  return new Promise((resolve) => {
    const chunks = [];
    process.stdin.on('data', (chunk) => chunks.push(chunk));
    process.stdin.on('end', () => {
      try {
        resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')));
      } catch {
        fail('unreadable settings');
      }
    });
  });
}

/** Pipes two sockets both ways; either one ending or failing ends the other. */
function join(a, b) {
  a.on('error', () => b.destroy());
  b.on('error', () => a.destroy());
  a.on('close', () => b.destroy());
  b.on('close', () => a.destroy());
  a.pipe(b);
  b.pipe(a);
}

function listen(server, ...where) {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(...where, resolve);
  });
}

function listenOnPath(server, path) {
  try {
    fs.unlinkSync(path);
  } catch {
    // nothing left from an earlier run
  }
  return listen(server, path);
}

async function main() {
  const settings = await readSettings();
  // A new namespace's loopback is down; as root of its own user namespace the gate may bring it up.
  // Under bubblewrap (no `ip` given) bwrap has brought it up already, and the gate is no root.
  if (settings.ip) {
    const up = spawnSync(settings.ip, ['link', 'set', 'lo', 'up'], { env: {}, encoding: 'utf8' });
    if (up.status !== 0) fail(`could not bring up loopback (${(up.stderr || (up.error && up.error.message) || '').trim()})`);
  }

  const out = net.createServer((client) => {
    client.pause();
    const upstream = net.connect(settings.egressSocket);
    client.on('error', () => upstream.destroy());
    client.once('close', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
    upstream.once('close', () => client.destroy());
    upstream.once('connect', () => upstream.write(`${settings.token}\n`));
    upstream.once('data', (answer) => {
      if (answer[0] !== 0x2b) return void upstream.destroy();
      if (answer.length > 1) client.write(answer.subarray(1));
      join(client, upstream);
      client.resume();
    });
  });

  const into = net.createServer((client) => {
    client.pause();
    const server = net.connect(settings.port, LOOPBACK);
    client.on('error', () => server.destroy());
    client.once('close', () => server.destroy());
    server.once('connect', () => {
      join(client, server);
      client.resume();
    });
    server.once('error', () => client.destroy());
  });

  const probe = net.createServer((client) => {
    client.on('error', () => undefined);
    const server = net.connect(settings.port, LOOPBACK);
    server.once('connect', () => {
      server.destroy();
      client.end('1');
    });
    server.once('error', () => client.end('0'));
  });

  try {
    await Promise.all([
      listen(out, settings.proxyPort, LOOPBACK),
      listenOnPath(into, settings.appSocket),
      listenOnPath(probe, settings.probeSocket),
    ]);
  } catch (error) {
    fail(`could not open its sockets (${error.message})`);
  }

  const app = spawn(settings.command, settings.args, { cwd: settings.cwd, env: settings.env, stdio: ['ignore', 'inherit', 'inherit'] });
  app.once('error', (error) => fail(`could not start the app server (${error.message})`));
  app.once('exit', (code, signal) => process.exit(code ?? 128 + (constants.signals[signal] || 1)));
  // The host signals the whole process group; the gate stays until the server has gone.
  process.on('SIGTERM', () => undefined);
  process.on('SIGINT', () => undefined);
}

main().catch((error) => fail(error.message));
