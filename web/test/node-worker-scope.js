'use strict';
// A Web Worker's global scope in a Node worker thread, for web/test/node-env.js: `self`,
// `postMessage`, `onmessage`, `close`, `importScripts` and `location`, then the worker script.

const fs = require('fs');
const url = require('url');
const vm = require('vm');
const { parentPort, workerData } = require('worker_threads');
const { installFetch } = require('./node-env.js');

globalThis.self = globalThis;
globalThis.location = new URL(workerData.scriptUrl);
globalThis.onmessage = null;
globalThis.postMessage = (message) => parentPort.postMessage(message);
globalThis.close = () => process.exit(0);
globalThis.importScripts = (...urls) => {
  for (const u of urls) {
    const file = url.fileURLToPath(new URL(u, globalThis.location.href));
    vm.runInThisContext(fs.readFileSync(file, 'utf8'), { filename: file });
  }
};
installFetch(globalThis);
parentPort.on('message', (data) => {
  if (typeof globalThis.onmessage === 'function') {
    globalThis.onmessage({ data });
  }
});
importScripts(workerData.scriptUrl);
