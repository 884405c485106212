/*
 * Cannonade in the browser (see docs/web.md).
 *
 *   const engine = await Cannonade();        // the engine, in a Web Worker: UCI lines
 *   const rules = await CannonadeRules();    // the rules, on this thread: legal moves, ends
 *
 * A classic script (UMD): <script src>, importScripts, or require(). scripts/build-wasm.sh
 * puts wasm-bindgen's glue for web/dist/cannonade.wasm where the marker below stands.
 */
(function (root, factory) {
  'use strict';
  const api = factory();
  if (typeof module === 'object' && module && module.exports) {
    module.exports = api;
  }
  if (root) {
    root.Cannonade = api.Cannonade;
    root.CannonadeRules = api.CannonadeRules;
    root.CannonadeWorkerMain = api.CannonadeWorkerMain;
  }
})(typeof self !== 'undefined' ? self : typeof globalThis !== 'undefined' ? globalThis : this, function () {
  'use strict';

  /*@WASM_BINDGEN_GLUE@*/

  // Where this script was loaded from: the default place of the .wasm and the worker.
  const SCRIPT_URL = (function () {
    if (typeof document !== 'undefined' && document.currentScript && document.currentScript.src) {
      return document.currentScript.src;
    }
    if (typeof __filename === 'string' && typeof require === 'function') {
      try {
        return require('url').pathToFileURL(__filename).href;
      } catch (e) {
        // not Node after all
      }
    }
    if (typeof self !== 'undefined' && self.location) {
      return self.location.href;
    }
    return undefined;
  })();

  function sibling(name) {
    if (SCRIPT_URL === undefined) {
      throw new Error(`Cannonade: cannot tell where ${name} is; give options.wasmUrl and options.workerUrl`);
    }
    return new URL(name, SCRIPT_URL).href;
  }

  // ---------------------------------------------------------------------------------------
  // Loading the module: compiled once per URL, shared by the rules and every engine worker.

  const compiled = new Map();

  function compileModule(url) {
    let p = compiled.get(url);
    if (p === undefined) {
      p = (async () => {
        const response = await fetch(url);
        if (!response.ok) {
          throw new Error(`Cannonade: cannot load ${url}: ${response.status} ${response.statusText}`);
        }
        const type = response.headers.get('Content-Type') || '';
        if (typeof WebAssembly.compileStreaming === 'function' && type.startsWith('application/wasm')) {
          return WebAssembly.compileStreaming(response);
        }
        return WebAssembly.compile(await response.arrayBuffer());
      })();
      p.catch(() => compiled.delete(url));
      compiled.set(url, p);
    }
    return p;
  }

  // ---------------------------------------------------------------------------------------
  // The input ring: where the page is cross-origin isolated, lines reach a searching worker
  // through a SharedArrayBuffer. It is a stream of bytes (UTF-8 lines, each ending in \n):
  // head[0] counts the bytes ever written (the page's), head[1] those read (the worker's),
  // both modulo 2^32; the capacity is a power of two, so a position is the count's low bits.

  const RING_BYTES = 1 << 16;

  function sharedMemory() {
    return (
      typeof SharedArrayBuffer === 'function' &&
      typeof Atomics === 'object' &&
      (typeof crossOriginIsolated === 'undefined' || crossOriginIsolated === true)
    );
  }

  class RingWriter {
    constructor(buffer) {
      this.head = new Int32Array(buffer, 0, 2);
      this.data = new Uint8Array(buffer, 8);
      this.backlog = [];
      this.encoder = new TextEncoder();
      // Lines ever queued: the worker says how many it has handled (its `idle` message).
      this.lines = 0;
    }

    // Queues one line; true when everything queued is in the ring.
    write(line) {
      this.lines += 1;
      this.backlog.push(this.encoder.encode(line + '\n'));
      return this.flush();
    }

    flush() {
      const cap = this.data.length;
      while (this.backlog.length > 0) {
        const w = Atomics.load(this.head, 0);
        const r = Atomics.load(this.head, 1);
        const free = cap - ((w - r) >>> 0);
        if (free === 0) {
          break;
        }
        const chunk = this.backlog[0];
        const n = Math.min(free, chunk.length);
        const at = w & (cap - 1);
        const first = Math.min(n, cap - at);
        this.data.set(chunk.subarray(0, first), at);
        if (n > first) {
          this.data.set(chunk.subarray(first, n), 0);
        }
        Atomics.store(this.head, 0, (w + n) | 0);
        Atomics.notify(this.head, 0);
        if (n === chunk.length) {
          this.backlog.shift();
        } else {
          this.backlog[0] = chunk.subarray(n);
          break;
        }
      }
      return this.backlog.length === 0;
    }
  }

  class RingReader {
    constructor(buffer) {
      this.head = new Int32Array(buffer, 0, 2);
      this.data = new Uint8Array(buffer, 8);
      this.partial = new Uint8Array(0);
      this.decoder = new TextDecoder();
      // Complete lines ever read.
      this.lines = 0;
    }

    // The complete lines written since the last read, joined by \n; null when there are none.
    // With waitMs > 0 and nothing to read, it waits that long for the page to write.
    read(waitMs) {
      const cap = this.data.length;
      const r = Atomics.load(this.head, 1);
      let w = Atomics.load(this.head, 0);
      if (w === r && waitMs > 0) {
        Atomics.wait(this.head, 0, w, waitMs);
        w = Atomics.load(this.head, 0);
      }
      if (w === r) {
        return null;
      }
      const n = (w - r) >>> 0;
      const bytes = new Uint8Array(this.partial.length + n);
      bytes.set(this.partial, 0);
      const at = r & (cap - 1);
      const first = Math.min(n, cap - at);
      bytes.set(this.data.subarray(at, at + first), this.partial.length);
      if (n > first) {
        bytes.set(this.data.subarray(0, n - first), this.partial.length + first);
      }
      Atomics.store(this.head, 1, w);
      const end = bytes.lastIndexOf(10);
      if (end < 0) {
        this.partial = bytes;
        return null;
      }
      this.partial = bytes.slice(end + 1);
      const text = this.decoder.decode(bytes.subarray(0, end));
      this.lines += text.split('\n').length;
      return text;
    }
  }

  // ---------------------------------------------------------------------------------------
  // The worker's side: cannonade-worker.js loads this script and calls CannonadeWorkerMain
  // with the page's first message.

  // A seed for a weakened engine's choices, different in every worker.
  function freshSeed() {
    const words = new Uint32Array(2);
    crypto.getRandomValues(words);
    return (BigInt(words[0]) << 32n) | BigInt(words[1]);
  }

  function CannonadeWorkerMain(scope, init) {
    const queue = [];
    let engine = null;
    let busy = false;
    let over = false;
    let muted = false;
    const reader = init.ring ? new RingReader(init.ring) : null;
    const print = (line) => {
      if (!muted) {
        scope.postMessage(line);
      }
    };
    const end = (message) => {
      over = true;
      scope.postMessage(message);
      scope.close();
    };

    function run() {
      if (engine === null || busy || over) {
        return;
      }
      busy = true;
      try {
        while (queue.length > 0 && !over) {
          const msg = queue.shift();
          let goOn = true;
          if (msg.type === 'line') {
            // Without shared memory the page may have to stop this search itself, by ending
            // the worker: it then plays the best line reported, or this move before any.
            if (reader === null && /^\s*go(\s|$)/.test(msg.line) && !/^\s*go\s+perft(\s|$)/.test(msg.line)) {
              scope.postMessage({ type: 'fallback', move: engine.firstLegalMove() ?? null });
            }
            goOn = engine.command(msg.line);
            scope.postMessage({ type: 'ack' });
          } else if (msg.type === 'wake') {
            goOn = engine.pump();
            // Every line read so far has been handled: a job the page is waiting on is over.
            scope.postMessage({ type: 'idle', handled: reader.lines });
          }
          if (!goOn) {
            end({ type: 'quit' });
          }
        }
      } catch (e) {
        // A trap of the module (which no input should cause): it is unusable from here on.
        end({ type: 'crashed', message: String((e && e.message) || e) });
      }
      busy = false;
    }

    scope.onmessage = (e) => {
      queue.push(e.data);
      run();
    };

    wasm_bindgen({ module_or_path: init.module || init.wasmUrl }).then(
      () => {
        engine = new wasm_bindgen.Engine(
          print,
          reader === null ? undefined : (waitMs) => reader.read(waitMs),
          () => {
            if (!muted) {
              scope.postMessage({ type: 'started' });
            }
          },
          freshSeed()
        );
        // A worker started again (after a stop without shared memory) gets the page's
        // settings and position back silently.
        muted = true;
        try {
          for (const line of init.restore || []) {
            engine.command(line);
          }
        } finally {
          muted = false;
        }
        scope.postMessage({ type: 'ready', interim: JSON.parse(wasm_bindgen.interimTableJson()) });
        run();
      },
      (e) => end({ type: 'failed', message: String((e && e.message) || e) })
    );
  }

  // ---------------------------------------------------------------------------------------
  // The page's side of the engine.

  // The settings a fresh worker must be given to go on where the last one was: every
  // `setoption`, and the last few `position` lines (a refused one leaves the one before),
  // in their order.
  class Settings {
    constructor() {
      this.lines = [];
    }

    note(line) {
      const word = firstWord(line);
      if (word !== 'setoption' && word !== 'position') {
        return;
      }
      this.lines.push(line);
      const positions = this.lines.filter((l) => firstWord(l) === 'position');
      if (positions.length > 8) {
        this.lines.splice(this.lines.indexOf(positions[0]), 1);
      }
      if (this.lines.length > 512) {
        // Only a repeated option can go: its later setting holds.
        const i = this.lines.findIndex(
          (l, k) => firstWord(l) === 'setoption' && this.lines.slice(k + 1).some((m) => optionName(m) === optionName(l))
        );
        this.lines.splice(i < 0 ? 0 : i, 1);
      }
    }
  }

  // The last line of each kind of work: a search's move, a perft's total, a bench's speed.
  const WORK_ENDS = { search: /^bestmove\s/, perft: /^Nodes searched: /, bench: /^Nodes\/second: / };

  // The work a line starts, if any: 'search', 'perft', 'bench' or null.
  function workKind(line) {
    const word = firstWord(line);
    if (word === 'bench') {
      return 'bench';
    }
    if (word !== 'go') {
      return null;
    }
    return /^\s*go\s+perft(\s|$)/.test(line) ? 'perft' : 'search';
  }

  function firstWord(line) {
    const m = /^\s*(\S+)/.exec(line);
    return m ? m[1] : '';
  }

  function optionName(line) {
    const m = /^\s*setoption\s+name\s+(.*?)(\s+value(\s|$)|$)/.exec(line);
    return m ? m[1].toLowerCase() : null;
  }

  function makeWorker(url) {
    const sameOrigin =
      typeof location === 'undefined' || typeof location.origin !== 'string' || new URL(url, location.href).origin === location.origin;
    if (sameOrigin) {
      return new Worker(url);
    }
    // A worker must come from the page's origin: a small one of ours loads the script.
    const blob = new Blob([`importScripts(${JSON.stringify(url)});`], { type: 'text/javascript' });
    return new Worker(URL.createObjectURL(blob));
  }

  class Engine {
    constructor(module, urls) {
      this.module = module;
      this.urls = urls;
      this.listeners = new Set();
      this.settings = new Settings();
      this.shared = sharedMemory();
      this.worker = null;
      this.ring = null;
      this.ready = false;
      this.over = false;
      // Lines waiting for the worker (starting, or busy with work the ring cannot reach).
      this.held = [];
      this.retry = null;
      // The work the worker is busy with that the page must stop itself, by ending the worker:
      // without shared memory every search and job; with it a job (perft, bench), which does
      // not read the ring. And the work's reports so far.
      this.sent = 0;
      this.acked = 0;
      this.busy = null;
      this.interim = {};
      this.lastPv = null;
      this.fallback = null;
    }

    addMessageListener(fn) {
      this.listeners.add(fn);
    }

    removeMessageListener(fn) {
      this.listeners.delete(fn);
    }

    postMessage(text) {
      if (this.over) {
        return;
      }
      for (const line of String(text).split('\n')) {
        this.input(line);
      }
    }

    terminate() {
      this.over = true;
      this.held = [];
      if (this.retry !== null) {
        clearTimeout(this.retry);
        this.retry = null;
      }
      if (this.worker !== null) {
        this.worker.terminate();
        this.worker = null;
      }
    }

    emit(line) {
      for (const fn of Array.from(this.listeners)) {
        try {
          fn(line);
        } catch (e) {
          setTimeout(() => {
            throw e;
          });
        }
      }
    }

    // Starts a worker with the settings so far; resolves when it is ready.
    start() {
      return new Promise((resolve, reject) => {
        const worker = makeWorker(this.urls.worker);
        this.worker = worker;
        this.ready = false;
        this.sent = 0;
        this.acked = 0;
        this.busy = null;
        this.ring = null;
        let ring = null;
        if (this.shared) {
          ring = new SharedArrayBuffer(8 + RING_BYTES);
        }
        worker.onmessage = (e) => {
          if (worker !== this.worker) {
            return;
          }
          const msg = e.data;
          if (typeof msg === 'string') {
            this.heard(msg);
            return;
          }
          switch (msg.type) {
            case 'ready':
              this.ready = true;
              this.interim = msg.interim;
              this.ring = ring === null ? null : new RingWriter(ring);
              resolve(this);
              this.flushHeld();
              break;
            case 'ack':
              this.acked += 1;
              if (this.busy !== null && this.acked >= this.busy.seq) {
                this.busy = null;
                this.flushHeld();
              }
              break;
            case 'idle':
              if (this.busy !== null && msg.handled >= this.busy.seq) {
                this.busy = null;
                this.flushHeld();
              }
              break;
            case 'fallback':
              this.fallback = msg.move;
              break;
            case 'started':
              // The work runs: what its line refused has been heard, and `isready` waiting
              // for that is answered now, as the engine answers it during a search.
              if (this.busy !== null && !this.busy.running) {
                this.busy.running = true;
                const waiting = this.held.filter((l) => firstWord(l) === 'isready').length;
                this.held = this.held.filter((l) => firstWord(l) !== 'isready');
                for (let i = 0; i < waiting; i++) {
                  this.emit('readyok');
                }
              }
              break;
            case 'quit':
              this.terminate();
              break;
            case 'crashed':
              this.crashed(msg.message);
              break;
            case 'failed':
              reject(new Error(`Cannonade: the engine did not start: ${msg.message}`));
              this.terminate();
              break;
          }
        };
        worker.onerror = (e) => {
          if (worker !== this.worker) {
            return;
          }
          if (!this.ready) {
            reject(new Error(`Cannonade: the worker did not start: ${e.message || e}`));
            this.terminate();
          }
        };
        worker.postMessage({
          scriptUrl: this.urls.script,
          wasmUrl: this.urls.wasm,
          module: this.module,
          ring,
          restore: this.settings.lines.slice(),
        });
      });
    }

    // A line of the engine's.
    heard(line) {
      const busy = this.busy;
      if (busy !== null && busy.kind === 'search' && line.startsWith('info ')) {
        const pv = line.indexOf(' pv ');
        const multipv = /\smultipv\s+(\d+)/.exec(line);
        // The first line of an iteration that finished (not a bound of one under way).
        if (pv >= 0 && (multipv === null || multipv[1] === '1') && !/\s(lower|upper)bound(\s|$)/.test(line)) {
          this.lastPv = line.slice(pv + 4).trim().split(/\s+/);
        }
      }
      // The work's last line: it is over, though the worker's word for that (which follows)
      // has not come yet; a listener that answers this line at once must find it over.
      if (busy !== null && WORK_ENDS[busy.kind].test(line)) {
        this.busy = null;
      }
      this.emit(line);
      if (busy !== null && this.busy === null) {
        this.flushHeld();
      }
    }

    input(line) {
      this.settings.note(line);
      if (!this.ready || (this.held.length > 0 && this.busy === null)) {
        this.held.push(line);
        return;
      }
      this.dispatch(line);
    }

    dispatch(line) {
      if (this.busy !== null) {
        this.duringWork(line);
      } else if (this.shared) {
        this.toRing(line);
        const kind = workKind(line);
        // A search reads the ring; a job does not.
        if (kind === 'perft' || kind === 'bench') {
          this.busy = { seq: this.ring.lines, kind, line, ponder: false, running: false };
        }
      } else {
        this.viaMessages(line);
      }
    }

    toRing(line) {
      if (!this.ring.write(line)) {
        this.scheduleRetry();
      }
      this.worker.postMessage({ type: 'wake' });
    }

    scheduleRetry() {
      if (this.retry === null) {
        this.retry = setTimeout(() => {
          this.retry = null;
          if (this.ring !== null && !this.ring.flush()) {
            this.scheduleRetry();
          }
          if (this.worker !== null) {
            this.worker.postMessage({ type: 'wake' });
          }
        }, 2);
      }
    }

    flushHeld() {
      while (this.ready && this.held.length > 0 && this.busy === null) {
        this.dispatch(this.held.shift());
      }
    }

    // Without shared memory every line goes to the worker as a message; a search or job it
    // starts keeps the worker from reading the next until it ends.
    viaMessages(line) {
      this.forward(line);
      const kind = workKind(line);
      if (kind !== null) {
        this.busy = {
          seq: this.sent,
          kind,
          line,
          ponder: kind === 'search' && /\sponder(\s|$)/.test(line),
          running: false,
        };
        this.lastPv = null;
        this.fallback = null;
      }
    }

    // A busy worker reads nothing the page can reach until its work ends: the page acts on
    // the lines the core answers during a search (its rule, sent by the worker: `interim`).
    duringWork(line) {
      const word = firstWord(line);
      switch (this.interim[word] || 'handle') {
        case 'done':
          if (word === 'isready') {
            if (this.busy.running) {
              this.emit('readyok');
            } else {
              // The work's line may yet be refused: its error comes first.
              this.held.push(line);
            }
          } else if (word === 'ponderhit' && this.busy.ponder) {
            // The search goes on on the clock: a fresh one, as the ponder search cannot be
            // reached.
            const go = this.busy.line.replace(/(\s)ponder(?=\s|$)/, '$1').replace(/\s+/g, ' ');
            this.restart();
            this.held.push(go);
          }
          break;
        case 'stop':
          this.stopBusy(true);
          break;
        case 'stopThenHandle':
          if (word === 'quit') {
            this.stopBusy(false);
            this.terminate();
          } else {
            this.stopBusy(true);
            this.held.push(line);
          }
          break;
        default:
          this.held.push(line);
      }
    }

    forward(line) {
      this.sent += 1;
      this.worker.postMessage({ type: 'line', line });
    }

    // Ends the worker's work by ending the worker (started again if `again`), and gives the
    // answer the work owed.
    stopBusy(again) {
      const busy = this.busy;
      if (again) {
        this.restart();
      } else {
        this.busy = null;
      }
      if (busy.kind === 'search') {
        const line = this.lastPv || (this.fallback ? [this.fallback] : []);
        if (line.length === 0) {
          this.emit('bestmove (none)');
        } else if (line.length === 1) {
          this.emit(`bestmove ${line[0]}`);
        } else {
          this.emit(`bestmove ${line[0]} ponder ${line[1]}`);
        }
      } else {
        this.emit(`info string ${busy.kind} stopped`);
      }
    }

    restart() {
      if (this.worker !== null) {
        this.worker.terminate();
        this.worker = null;
      }
      this.ready = false;
      this.busy = null;
      this.start().catch((e) => this.emit(`info string error: ${e.message}`));
    }

    crashed(message) {
      this.emit(`info string error: the engine failed (${message}) and was started again`);
      if (this.busy !== null) {
        this.stopBusy(true);
      } else {
        this.restart();
      }
    }
  }

  function urlsOf(options) {
    return {
      wasm: options.wasmUrl ? new URL(options.wasmUrl, SCRIPT_URL).href : sibling('cannonade.wasm'),
      worker: options.workerUrl ? new URL(options.workerUrl, SCRIPT_URL).href : sibling('cannonade-worker.js'),
      script: SCRIPT_URL,
    };
  }

  // The engine in a Web Worker (see docs/web.md).
  async function Cannonade(options) {
    const urls = urlsOf(options || {});
    const module = await compileModule(urls.wasm);
    const engine = new Engine(module, urls);
    await engine.start();
    return {
      addMessageListener: (fn) => engine.addMessageListener(fn),
      removeMessageListener: (fn) => engine.removeMessageListener(fn),
      postMessage: (line) => engine.postMessage(line),
      terminate: () => engine.terminate(),
      // Whether `stop` reaches a running search through shared memory (true), or by ending
      // the worker (false; see docs/web.md).
      sharedMemory: engine.shared,
    };
  }

  // ---------------------------------------------------------------------------------------
  // The rules, on the page's own thread.

  class Game {
    constructor(raw) {
      this.raw = raw;
    }
    fen() {
      return this.raw.fen();
    }
    variant() {
      return this.raw.variant();
    }
    sideToMove() {
      return this.raw.sideToMove();
    }
    inCheck() {
      return this.raw.inCheck();
    }
    legalMoves() {
      return JSON.parse(this.raw.legalMovesJson());
    }
    play(move) {
      return JSON.parse(this.raw.playJson(String(move)));
    }
    undo() {
      const m = this.raw.undo();
      return m === undefined ? null : m;
    }
    moves() {
      return JSON.parse(this.raw.movesJson());
    }
    outcome() {
      return JSON.parse(this.raw.outcomeJson());
    }
    // The game as PGN (`cannonade match`'s writer); `headers`: { White: 'You', ... }.
    pgn(headers) {
      return this.raw.pgn(JSON.stringify(headers == null ? null : headers));
    }
    // Lets go of the game's memory now (the browser otherwise does when it collects it).
    free() {
      this.raw.free();
    }
  }

  let rules = null;

  async function CannonadeRules(options) {
    if (rules === null) {
      rules = (async () => {
        const urls = urlsOf(options || {});
        const module = await compileModule(urls.wasm);
        await wasm_bindgen({ module_or_path: module });
        return {
          variants: () => JSON.parse(wasm_bindgen.variantsJson()),
          newGame: (variant, fen) => new Game(new wasm_bindgen.RulesGame(String(variant), fen == null ? undefined : String(fen))),
          // Every game of a PGN text (`cannonade analyse`'s reader); games without a Variant
          // tag are of `defaultVariant` (else chess).
          readPgn: (text, defaultVariant) =>
            JSON.parse(wasm_bindgen.readPgnJson(String(text), defaultVariant == null ? undefined : String(defaultVariant))),
          // A searched game judged as `cannonade analyse` judges it (docs/web.md).
          review: (request) => JSON.parse(wasm_bindgen.reviewJson(JSON.stringify(request))),
        };
      })();
      rules.catch(() => {
        rules = null;
      });
    }
    return rules;
  }

  return { Cannonade, CannonadeRules, CannonadeWorkerMain };
});
