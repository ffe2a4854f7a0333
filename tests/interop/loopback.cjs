// Preloaded (`node -r loopback.cjs ...`) into every node process the interop tests start.
//
// The npm peers call `server.listen(port)` with no host, which binds every interface; the tests
// must only ever listen on loopback. This makes a listen() call that names no host bind
// 127.0.0.1 instead. Calls that name a host, and IPC paths, are left alone.
//
// A listen() without a host binds synchronously, and the conformance harness relies on that (it
// reads `server.address().port` right after `listen(0)`). Node resolves a host through
// dns.lookup() even when it is an IP literal, which makes the bind asynchronous; so while our own
// listen() runs, the lookup of the loopback literal answers at once.
"use strict";

const dns = require("node:dns");
const net = require("node:net");

const LOOPBACK = "127.0.0.1";
const original = net.Server.prototype.listen;
const originalLookup = dns.lookup;
let rebinding = false;

dns.lookup = function lookup(hostname, options, callback) {
  if (rebinding && hostname === LOOPBACK) {
    const done = typeof options === "function" ? options : callback;
    const all = typeof options === "object" && options !== null && options.all;
    return all ? done(null, [{ address: LOOPBACK, family: 4 }]) : done(null, LOOPBACK, 4);
  }
  return originalLookup.apply(this, arguments);
};

function isPort(value) {
  return typeof value === "number" || (typeof value === "string" && /^\d+$/.test(value));
}

net.Server.prototype.listen = function listen(...args) {
  const first = args[0];
  if (first === undefined || typeof first === "function") {
    // listen() / listen(callback): an ephemeral port on every interface.
    args.unshift(0, LOOPBACK);
  } else if (isPort(first) && typeof args[1] !== "string") {
    // listen(port[, backlog][, callback])
    args.splice(1, 0, LOOPBACK);
  } else if (
    first !== null &&
    typeof first === "object" &&
    first.path === undefined &&
    first.host === undefined &&
    first.port !== undefined
  ) {
    // listen({port, ...}[, callback])
    args[0] = { ...first, host: LOOPBACK };
  }
  rebinding = true;
  try {
    return original.apply(this, args);
  } finally {
    rebinding = false;
  }
};
