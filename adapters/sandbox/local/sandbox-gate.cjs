/* global require, process, Buffer, setTimeout, clearTimeout, setInterval, clearInterval */
/* eslint-disable @typescript-eslint/no-require-imports -- runs as plain CommonJS inside the app's sandbox */
/**
 * The gate: the one program Porter runs inside an app's sandbox, beside (never inside) the app.
 * Started before the app (a warm sandbox is a gate waiting for its `boot`), it talks to the host
 * only over the IPC channel Node opened for it (fd 3), and:
 *
 * - unpacks the app's files into its folder (under bubblewrap: a size-capped tmpfs at /app);
 * - starts the app server (under bubblewrap: in a nested sandbox of its own, see gate-launch.ts,
 *   where the app is pid 1 of a pid namespace that holds nothing of the gate's), with its limits;
 * - in: on `connect`, dials the server's 127.0.0.1:$PORT and hands the connected socket to the host;
 * - out: accepts the app's connections on 127.0.0.1:<proxyPort> and hands each to the host's
 *   egress proxy, which decides where it may go;
 * - watches the app's processes, memory and disk, and stops it (telling the host why) over a limit;
 * - ends with the app, and ends the app when the host goes away (the channel closes).
 *
 * Sockets cross the namespace boundary as file descriptors over the channel: no path, port or file
 * the app could replace is ever used by the host. Nothing here is trusted by the host either: the
 * host checks every message. Plain CommonJS with no dependencies.
 */
'use strict';

const net = require('node:net');
const fs = require('node:fs');
const path = require('node:path');
const { spawn, spawnSync } = require('node:child_process');

const LOOPBACK = '127.0.0.1';
const PROBE_EVERY_MS = 2;
/** O_CLOEXEC in /proc/<pid>/fdinfo's octal flags. */
const O_CLOEXEC = 0o2000000;

let app = null;
let booted = false;
let ending = false;

function send(message, handle) {
  if (!process.connected) return;
  try {
    if (handle) process.send(message, handle);
    else process.send(message);
  } catch {
    // the host went away; 'disconnect' ends us
  }
}

function fail(message) {
  process.stderr.write(`porter sandbox gate: ${message}\n`);
  send({ type: 'failed', message });
  finish(70);
}

function finish(code) {
  if (ending) return;
  ending = true;
  stopApp();
  // Let the last message reach the host before the channel closes.
  setTimeout(() => process.exit(code), 20).unref();
}

/**
 * Descriptors this process inherited by mistake (a host whose own parent leaked one): every fd
 * without close-on-exec beyond stdio and the channel would pass to the app. Node opens its own
 * with close-on-exec, so those stay.
 */
function closeInheritedDescriptors() {
  let names;
  try {
    names = fs.readdirSync('/proc/self/fd');
  } catch {
    return; // no /proc (not Linux): nothing to inspect
  }
  const channel = Number(process.env.NODE_CHANNEL_FD);
  for (const name of names) {
    const fd = Number(name);
    if (!Number.isInteger(fd) || fd <= 2 || fd === channel) continue;
    let flags;
    try {
      const info = fs.readFileSync(`/proc/self/fdinfo/${fd}`, 'utf8');
      flags = parseInt((/^flags:\s*([0-7]+)/m.exec(info) || [])[1] || '0', 8);
    } catch {
      continue; // the readdir's own descriptor, already gone
    }
    if ((flags & O_CLOEXEC) === 0) {
      try {
        fs.closeSync(fd);
      } catch {
        // gone
      }
    }
  }
}

/** Relative, plain, and inside the root: anything else in a boot message is refused. */
function placeOf(root, relative) {
  if (typeof relative !== 'string' || relative === '' || relative.includes('\0') || relative.startsWith('/')) return null;
  const parts = relative.split('/');
  if (parts.some((part) => part === '' || part === '.' || part === '..')) return null;
  return path.join(root, ...parts);
}

function unpack(root, entries) {
  for (const entry of entries) {
    const place = placeOf(root, entry.path);
    if (!place) throw new Error(`refused a file path: ${JSON.stringify(String(entry.path).slice(0, 200))}`);
    fs.mkdirSync(path.dirname(place), { recursive: true });
    if (entry.kind === 'dir') fs.mkdirSync(place, { recursive: true, mode: 0o755 });
    else if (entry.kind === 'link') fs.symlinkSync(String(entry.target), place);
    else fs.writeFileSync(place, Buffer.from(entry.data), { mode: (entry.mode & 0o777) | 0o600 });
  }
}

function accepts(port) {
  return new Promise((resolve) => {
    const socket = net.connect(port, LOOPBACK);
    const done = (answer) => {
      socket.destroy();
      resolve(answer);
    };
    socket.setTimeout(1000, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

function openEgress(proxyPort) {
  return new Promise((resolve, reject) => {
    const server = net.createServer({ pauseOnConnect: true }, (socket) => send({ type: 'egress' }, socket));
    server.once('error', reject);
    server.listen(proxyPort, LOOPBACK, resolve);
  });
}

/** What one app process is using: its task count, anonymous memory and CPU seconds (from /proc). */
function usageOf(pid) {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // utime and stime are fields 14 and 15 of stat, in clock ticks (USER_HZ, 100 on Linux ABIs).
    const cpu = (Number(fields[11]) + Number(fields[12])) / 100;
    const number = (key) => Number((new RegExp(`^${key}:\\s*(\\d+)`, 'm').exec(status) || [])[1] || 0);
    return { tasks: number('Threads'), memory: number('RssAnon') * 1024, cpu };
  } catch {
    return null; // ended while we looked
  }
}

const CPU_WINDOW_MS = 60_000;

/**
 * The app's limits, checked every few hundred milliseconds over every process of the sandbox but
 * the gate's own: the kernel holds each process (rlimits); this holds them all together. CPU time
 * is what all of them spent over the last minute (each process's time since it was last seen, so
 * one that ended still counts what it spent while watched).
 */
function watch(limits, ignored) {
  const seen = new Map();
  const spent = [];
  const timer = setInterval(() => {
    if (!app) return clearInterval(timer);
    const now = Date.now();
    let tasks = 0;
    let memory = 0;
    let cpuDelta = 0;
    const alive = new Map();
    let names;
    try {
      names = fs.readdirSync('/proc');
    } catch {
      return;
    }
    for (const name of names) {
      if (!/^\d+$/.test(name) || ignored.has(Number(name))) continue;
      const usage = usageOf(Number(name));
      if (!usage) continue;
      tasks += usage.tasks;
      memory += usage.memory;
      cpuDelta += Math.max(0, usage.cpu - (seen.get(name) || 0));
      alive.set(name, usage.cpu);
    }
    seen.clear();
    for (const [name, cpu] of alive) seen.set(name, cpu);
    spent.push([now, cpuDelta]);
    while (spent.length && spent[0][0] < now - CPU_WINDOW_MS) spent.shift();
    const cpu = spent.reduce((sum, [, seconds]) => sum + seconds, 0);
    let over = null;
    if (limits.processes && tasks >= limits.processes) over = { limit: 'processes', used: tasks, max: limits.processes };
    else if (limits.memoryBytes && memory > limits.memoryBytes) over = { limit: 'memory', used: memory, max: limits.memoryBytes };
    else if (limits.cpuSecondsPerMinute && cpu >= limits.cpuSecondsPerMinute)
      over = { limit: 'cpu', used: cpu, max: limits.cpuSecondsPerMinute };
    else {
      for (const place of limits.diskPaths || []) {
        try {
          const disk = fs.statfsSync(place);
          if (disk.bavail * disk.bsize < 64 * 1024) {
            over = { limit: 'disk', used: (disk.blocks - disk.bavail) * disk.bsize, max: disk.blocks * disk.bsize, place };
            break;
          }
        } catch {
          // not mounted here
        }
      }
    }
    if (over) {
      clearInterval(timer);
      send({ type: 'limit', ...over });
      stopApp();
    }
  }, limits.everyMs || 200);
}

function stopApp() {
  if (!app || app.exitCode !== null || app.signalCode !== null) return;
  try {
    // Under bubblewrap the app's whole tree goes with its sandbox; otherwise with its group.
    process.kill(app.inner ? app.pid : -app.pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

async function boot(settings) {
  if (booted) return fail('booted twice');
  booted = true;
  const root = settings.root;
  unpack(root, settings.files || []);
  if (settings.ip) {
    // A namespace made by `unshare` starts with loopback down; as root of its own user namespace
    // the gate may bring it up. Under bubblewrap it is up already.
    const up = spawnSync(settings.ip, ['link', 'set', 'lo', 'up'], { env: {}, encoding: 'utf8' });
    if (up.status !== 0) return fail(`could not bring up loopback (${(up.stderr || (up.error && up.error.message) || '').trim()})`);
  }
  // Opened while the app boots (it cannot reach for it before its runtime is up).
  const egress = settings.proxyPort ? openEgress(settings.proxyPort) : Promise.resolve();
  const [command, ...args] = settings.command;
  const stdio = ['ignore', 'inherit', 'inherit'];
  if (settings.seccomp) stdio.push('pipe');
  app = spawn(command, args, { cwd: settings.cwd || root, env: settings.env || {}, stdio, detached: !settings.inner });
  app.inner = Boolean(settings.inner);
  if (settings.seccomp) {
    // A sandbox that failed at once closes its end early; its exit says why.
    app.stdio[3].on('error', () => undefined);
    app.stdio[3].end(Buffer.from(settings.seccomp));
  }
  app.once('error', (error) => fail(`could not start the app server (${error.message})`));
  app.once('exit', (code, signal) => {
    send({ type: 'exited', code, signal });
    finish(0);
  });
  if (app.pid !== undefined) send({ type: 'spawned', pid: app.pid });
  try {
    await egress;
  } catch (error) {
    return fail(`could not open its egress port (${error.message})`);
  }
  if (settings.limits) watch(settings.limits, new Set([1, process.pid, app.pid]));
  for (;;) {
    if (!app || app.exitCode !== null || app.signalCode !== null || ending) return;
    if (await accepts(settings.port)) return send({ type: 'listening' });
    await new Promise((resolve) => setTimeout(resolve, PROBE_EVERY_MS));
  }
}

function connectTo(port, id) {
  const socket = net.connect(port, LOOPBACK);
  const timer = setTimeout(() => socket.destroy(new Error('timed out')), 5000);
  socket.once('connect', () => {
    clearTimeout(timer);
    socket.pause();
    send({ type: 'connected', id }, socket);
  });
  socket.once('error', (error) => {
    clearTimeout(timer);
    send({ type: 'connect-failed', id, code: error.code || 'ERROR' });
  });
}

function main() {
  closeInheritedDescriptors();
  if (!process.connected) {
    process.stderr.write('porter sandbox gate: no channel to the host\n');
    process.exit(70);
  }
  let port = 0;
  process.on('message', (message) => {
    if (!message || typeof message !== 'object') return;
    switch (message.type) {
      case 'boot':
        port = Number(message.settings.port);
        boot(message.settings).catch((error) => fail(error.message));
        return;
      case 'connect':
        return connectTo(port, message.id);
      case 'probe':
        return void accepts(port).then((ok) => send({ type: 'probed', id: message.id, ok }));
      case 'stop':
        return finish(0);
    }
  });
  // The host went away (or let go of us): nothing may outlive it.
  process.on('disconnect', () => finish(0));
  process.on('SIGTERM', () => finish(0));
  process.on('SIGINT', () => finish(0));
  send({ type: 'ready' });
}

main();
