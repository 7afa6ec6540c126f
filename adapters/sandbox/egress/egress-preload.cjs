/* global require, process, Buffer, setImmediate */
/* eslint-disable @typescript-eslint/no-require-imports -- a preload runs as plain CommonJS inside the app */
/**
 * Loaded into every Node process of a sandbox with an egress policy, and of every bubblewrap-contained
 * sandbox (NODE_OPTIONS --require).
 * It routes Node's HTTP clients (global fetch, http, https) through the sandbox's filtering proxy
 * and refuses every other outbound socket, so a raw-IP request — or any connection that would
 * skip the proxy's allow-list — fails instead of leaving the sandbox.
 *
 * Plain CommonJS with no dependencies: it runs inside the app's process, before the app's code.
 */
'use strict';

const proxyAddress = process.env.PORTER_EGRESS_PROXY;
if (proxyAddress) install(proxyAddress);

function install(address) {
  const net = require('node:net');
  const tls = require('node:tls');
  const http = require('node:http');
  const https = require('node:https');
  const dgram = require('node:dgram');
  const separator = address.lastIndexOf(':');
  const proxyHost = address.slice(0, separator);
  const proxyPort = Number(address.slice(separator + 1));
  const originalConnect = net.Socket.prototype.connect;

  function refusal(what) {
    const error = new Error(`egress refused: ${what} (only HTTP(S) through the sandbox's egress proxy leaves the sandbox)`);
    error.code = 'EGRESS_REFUSED';
    return error;
  }

  // Every outbound socket must be the one to the proxy; local IPC (a path) is not egress.
  net.Socket.prototype.connect = function guardedConnect(...args) {
    const list = Array.isArray(args[0]) ? args[0] : args;
    const first = list[0];
    let host = 'localhost';
    let port;
    if (first !== null && typeof first === 'object') {
      if (first.path) return originalConnect.apply(this, args);
      host = first.host || 'localhost';
      port = Number(first.port);
    } else if (typeof first === 'number' || /^\d+$/.test(String(first))) {
      port = Number(first);
      if (typeof list[1] === 'string') host = list[1];
    } else {
      return originalConnect.apply(this, args);
    }
    if (host === proxyHost && port === proxyPort) return originalConnect.apply(this, args);
    process.nextTick(() => this.destroy(refusal(`direct connection to ${host}:${port}`)));
    return this;
  };

  const refuseDatagrams = function () {
    throw refusal('UDP datagrams');
  };
  dgram.Socket.prototype.send = refuseDatagrams;
  dgram.Socket.prototype.connect = refuseDatagrams;

  /** Opens a CONNECT tunnel through the proxy; the callback gets the raw socket once it is through. */
  function openTunnel(host, port, callback) {
    const authority = net.isIPv6(host) ? `[${host}]:${port}` : `${host}:${port}`;
    const socket = net.connect({ host: proxyHost, port: proxyPort });
    let received = Buffer.alloc(0);
    let settled = false;
    const settle = (error, value) => {
      if (settled) return;
      settled = true;
      socket.removeListener('data', onData);
      callback(error, value);
    };
    const onData = (chunk) => {
      received = Buffer.concat([received, chunk]);
      const end = received.indexOf('\r\n\r\n');
      if (end === -1) return;
      const head = received.subarray(0, end).toString('latin1');
      const rest = received.subarray(end + 4);
      const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(head)?.[1]);
      if (status === 200) {
        socket.removeListener('data', onData);
        socket.pause();
        if (rest.length) socket.unshift(rest);
        return settle(null, socket);
      }
      const reason = rest.toString('utf8').trim() || `proxy answered ${status}`;
      socket.destroy();
      settle(status === 403 ? refusal(reason) : new Error(`egress proxy: ${reason}`));
    };
    socket.on('data', onData);
    socket.once('error', (error) => settle(error));
    socket.once('close', () => settle(new Error('egress proxy closed the connection')));
    socket.once('connect', () => socket.write(`CONNECT ${authority} HTTP/1.1\r\nHost: ${authority}\r\n\r\n`));
  }

  function overTls(socket, host, options, callback) {
    const servername = options.servername || (net.isIP(host) ? undefined : host);
    const secure = tls.connect({ ...options, host, socket, servername });
    secure.once('secureConnect', () => callback(null, secure));
    secure.once('error', (error) => callback(error));
  }

  class TunnelHttpAgent extends http.Agent {
    createConnection(options, callback) {
      openTunnel(options.host || 'localhost', Number(options.port) || 80, (error, socket) => {
        callback(error, socket);
        // The tunnel hands the socket over paused (so no byte is lost); the http client only
        // listens for 'data', so let it flow once the client has attached (it does so on a tick).
        if (socket) setImmediate(() => socket.resume());
      });
    }
  }

  class TunnelHttpsAgent extends https.Agent {
    createConnection(options, callback) {
      const host = options.host || 'localhost';
      openTunnel(host, Number(options.port) || 443, (error, socket) => {
        if (error) return callback(error);
        const tlsOptions = { ...options };
        delete tlsOptions.path;
        delete tlsOptions.port;
        overTls(socket, host, tlsOptions, callback);
      });
    }
  }

  http.globalAgent = new TunnelHttpAgent({ keepAlive: true });
  https.globalAgent = new TunnelHttpsAgent({ keepAlive: true });

  // Global fetch is Node's bundled undici. Its global dispatcher lives under a symbol shared by
  // every undici copy; a data: URL makes Node create it without touching the network, and the
  // Agent class it is an instance of accepts a connector that dials through the tunnel. Loading
  // undici costs tens of milliseconds, so it happens off the server's way to listening: on the
  // first fetch, or just after the app's own start, whichever comes first. Until then a direct
  // connection is refused anyway (above), so nothing slips out.
  const dispatcherKey = Symbol.for('undici.globalDispatcher.1');
  const originalFetch = globalThis.fetch;
  if (typeof originalFetch !== 'function') return;
  let tunnelled = false;
  const tunnelFetch = () => {
    if (tunnelled) return;
    tunnelled = true;
    originalFetch('data:,').catch(() => undefined);
    const current = globalThis[dispatcherKey];
    if (current && typeof current.constructor === 'function') {
      const Agent = current.constructor;
      globalThis[dispatcherKey] = new Agent({
        connect(options, callback) {
          const host = String(options.hostname).replace(/^\[(.*)\]$/, '$1');
          const secure = options.protocol === 'https:';
          const port = Number(options.port) || (secure ? 443 : 80);
          openTunnel(host, port, (error, socket) => {
            if (error) return callback(error, null);
            if (!secure) return callback(null, socket);
            overTls(socket, host, { servername: options.servername, ALPNProtocols: ['http/1.1'] }, (tlsError, tlsSocket) =>
              callback(tlsError || null, tlsSocket || null),
            );
          });
        },
      });
    }
  };
  globalThis.fetch = function fetch(...args) {
    tunnelFetch();
    return originalFetch.apply(this, args);
  };
  setImmediate(tunnelFetch);
}
