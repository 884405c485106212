'use strict';
// Runs the browser build (web/dist/) in Node: the Web APIs it needs that Node lacks, made from
// Node's own (a Web Worker over worker_threads, fetch of file: URLs), and the native engine
// to compare it with. Used by the tests in this folder (see docs/web.md).

const fs = require('fs');
const path = require('path');
const url = require('url');
const { spawn, spawnSync } = require('child_process');
const { Worker: NodeWorker } = require('worker_threads');

const ROOT = path.resolve(__dirname, '..', '..');
const DIST = path.join(ROOT, 'web', 'dist');
const NATIVE = process.env.CANNONADE_NATIVE || path.join(ROOT, 'target', 'release', 'cannonade');

// fetch() for file: URLs, as a page's fetch for its own files.
function installFetch(scope) {
  const realFetch = scope.fetch;
  scope.fetch = async (input, init) => {
    const href = String(input instanceof URL ? input.href : (input && input.url) || input);
    if (href.startsWith('file:')) {
      const bytes = await fs.promises.readFile(url.fileURLToPath(href));
      const type = href.endsWith('.wasm') ? 'application/wasm' : 'text/javascript';
      return new Response(bytes, { status: 200, headers: { 'Content-Type': type } });
    }
    return realFetch(input, init);
  };
}

// The Web Worker interface over a Node worker thread running node-worker-scope.js.
class WebWorker {
  constructor(scriptUrl) {
    this.onmessage = null;
    this.onerror = null;
    this.thread = new NodeWorker(path.join(__dirname, 'node-worker-scope.js'), {
      workerData: { scriptUrl: String(scriptUrl) },
    });
    this.thread.on('message', (data) => this.onmessage && this.onmessage({ data, target: this }));
    this.thread.on('error', (e) => this.onerror && this.onerror(e));
  }

  postMessage(message) {
    this.thread.postMessage(message);
  }

  terminate() {
    this.thread.terminate();
  }
}

// Loads web/dist/cannonade.js as a page would; `shared` false makes the page look as one
// that is not cross-origin isolated (no SharedArrayBuffer for the engine).
function loadBuild({ shared = true } = {}) {
  installFetch(globalThis);
  globalThis.Worker = WebWorker;
  globalThis.crossOriginIsolated = shared;
  const file = path.join(DIST, 'cannonade.js');
  if (!fs.existsSync(file)) {
    throw new Error(`${file} is missing: run scripts/build-wasm.sh first`);
  }
  return require(file);
}

// An engine of the browser build, with its lines collected: `send` posts lines, `until` waits
// for a line that matches (every line up to it is returned).
async function startEngine(api, options) {
  const engine = await api.Cannonade(options);
  const lines = [];
  let waiter = null;
  engine.addMessageListener((line) => {
    lines.push(line);
    if (waiter !== null) {
      waiter();
    }
  });
  const c = collector(lines, (l) => engine.postMessage(l), () => engine.terminate(), (w) => (waiter = w));
  c.engine = engine;
  return c;
}

// The native engine, driven as the browser build is: `send`, `until`, `quit`.
function startNative() {
  const child = spawn(NATIVE, [], { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = [];
  let waiter = null;
  let buffered = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (d) => {
    buffered += d;
    let nl;
    while ((nl = buffered.indexOf('\n')) >= 0) {
      lines.push(buffered.slice(0, nl));
      buffered = buffered.slice(nl + 1);
    }
    if (waiter !== null) {
      waiter();
    }
  });
  return collector(lines, (l) => child.stdin.write(l + '\n'), () => child.stdin.end(), (w) => (waiter = w));
}

// `send`, `until` and `quit` over a list of lines that grows.
function collector(lines, write, end, setWaiter) {
  let read = 0;
  return {
    lines,
    send(...ls) {
      for (const l of ls) {
        write(l);
      }
    },
    // Resolves with the lines since the last call up to the first that `test` accepts; fails
    // after `limitMs` (a bound for a hung engine, not a measurement).
    until(test, limitMs = 120000) {
      const match = typeof test === 'string' ? (l) => l === test : typeof test === 'function' ? test : (l) => test.test(l);
      return new Promise((resolve, reject) => {
        const start = read;
        const look = () => {
          while (read < lines.length) {
            const line = lines[read++];
            if (match(line)) {
              setWaiter(null);
              clearTimeout(timer);
              resolve(lines.slice(start, read));
              return true;
            }
          }
          return false;
        };
        const timer = setTimeout(() => {
          setWaiter(null);
          reject(new Error(`no line matching ${test} within ${limitMs} ms; last lines: ${lines.slice(-5).join(' | ')}`));
        }, limitMs);
        if (!look()) {
          setWaiter(look);
        }
      });
    },
    quit: end,
  };
}

// The native engine's answers to `lines` (its stdin closed after them): every line it writes.
function nativeAnswers(lines) {
  const r = spawnSync(NATIVE, [], { input: lines.join('\n') + '\n', encoding: 'utf8', maxBuffer: 1 << 28 });
  if (r.error) {
    throw r.error;
  }
  return r.stdout.split('\n').filter((l, i, all) => i < all.length - 1 || l !== '');
}

// The native command line tool's stdout for `args`.
function nativeTool(args) {
  const r = spawnSync(NATIVE, args, { encoding: 'utf8', maxBuffer: 1 << 28 });
  if (r.error) {
    throw r.error;
  }
  if (r.status !== 0) {
    throw new Error(`cannonade ${args.join(' ')}: ${r.stderr}`);
  }
  return { stdout: r.stdout, stderr: r.stderr };
}

// The same, without blocking (for long native runs beside the wasm build's).
function nativeToolAsync(args) {
  return new Promise((resolve, reject) => {
    const child = spawn(NATIVE, args);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve({ stdout, stderr }) : reject(new Error(`cannonade ${args.join(' ')}: ${stderr}`))));
  });
}

function requireNative() {
  if (!fs.existsSync(NATIVE)) {
    throw new Error(`${NATIVE} is missing: run cargo build --release first (or set CANNONADE_NATIVE)`);
  }
}

module.exports = { ROOT, DIST, NATIVE, loadBuild, startEngine, startNative, nativeAnswers, nativeTool, nativeToolAsync, requireNative, installFetch };
