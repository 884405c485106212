'use strict';
// The engine of the browser build (web/dist/, in a worker) against the native program: the
// same answers to `uci`, `d` and `eval`, the same perft counts in every game, the same bench
// signature and the same searches (a search to a fixed depth on one thread is a fixed tree);
// and it answers during a search, with shared memory and without.

const test = require('node:test');
const assert = require('node:assert/strict');
const { loadBuild, startEngine, startNative, nativeTool, nativeToolAsync, requireNative } = require('./node-env.js');

const api = loadBuild();

// An engine of the browser build: with stop through shared memory, or as on a page that is
// not cross-origin isolated.
async function wasmEngine(shared) {
  globalThis.crossOriginIsolated = shared;
  const e = await startEngine(api);
  assert.equal(e.engine.sharedMemory, shared);
  return e;
}

// A search's lines without what depends on the clock.
function timeless(lines) {
  return lines.map((l) => l.replace(/ nps \d+/, '').replace(/ time \d+/, '')).filter((l) => !l.startsWith('Nodes/second'));
}

test('uci, d and eval: the native answers', async () => {
  requireNative();
  const wasm = await wasmEngine(true);
  const native = startNative();
  for (const e of [wasm, native]) {
    e.send('uci');
  }
  assert.deepEqual(await wasm.until('uciok'), await native.until('uciok'));
  const rules = await api.CannonadeRules();
  for (const v of rules.variants()) {
    const g = rules.newGame(v.name);
    for (let i = 0; i < 9 && g.legalMoves().length > 0 && g.outcome() === null; i++) {
      const legal = g.legalMoves();
      g.play(legal[(i * 7 + 3) % legal.length].uci);
    }
    const lines = [`setoption name UCI_Variant value ${v.name}`, `position startpos moves ${g.moves().join(' ')}`, 'd', 'eval', 'isready'];
    for (const e of [wasm, native]) {
      e.send(...lines);
    }
    assert.deepEqual(await wasm.until('readyok'), await native.until('readyok'), v.name);
  }
  wasm.quit();
  native.quit();
});

test('go perft: the native counts in every game', async () => {
  requireNative();
  const rules = await api.CannonadeRules();
  for (const shared of [true, false]) {
    const wasm = await wasmEngine(shared);
    for (const v of rules.variants()) {
      // From the start, and from a position a few moves into a game.
      const g = rules.newGame(v.name);
      for (let i = 0; i < 12 && g.legalMoves().length > 0 && g.outcome() === null; i++) {
        const legal = g.legalMoves();
        g.play(legal[(i * 13 + 5) % legal.length].uci);
      }
      for (const [fen, depth] of [
        [null, shared ? 4 : 3],
        [g.fen(), 3],
      ]) {
        const args = ['perft', '--variant', v.name, '--depth', String(depth)];
        if (fen !== null) {
          args.push('--fen', fen);
        }
        const native = nativeTool(args).stdout.trimEnd().split('\n');
        wasm.send(`setoption name UCI_Variant value ${v.name}`, fen === null ? 'position startpos' : `position fen ${fen}`, `go perft ${depth}`);
        const ours = (await wasm.until(/^Nodes searched/)).filter((l) => !l.startsWith('info string variant'));
        assert.deepEqual(ours, native, `${v.name} ${fen || 'startpos'} depth ${depth}`);
      }
    }
    wasm.quit();
  }
});

test('bench: the native signature', async () => {
  requireNative();
  const native = nativeToolAsync(['bench']);
  const wasm = await wasmEngine(true);
  wasm.send('bench');
  const ours = await wasm.until(/^Nodes\/second/, 600000);
  const nodes = (text) => Number(/Nodes searched: (\d+)/.exec(text)[1]);
  const theirs = await native;
  assert.equal(nodes(ours.join('\n')), nodes(theirs.stdout));
  // Each position's line (its best move and nodes) too.
  const positions = ours.filter((l) => l.startsWith('info string Position')).map((l) => l.slice('info string '.length));
  assert.deepEqual(positions, theirs.stderr.split('\n').filter((l) => l.startsWith('Position')));
  wasm.quit();
});

test('searches to a fixed depth: the native lines and move', async () => {
  requireNative();
  const rules = await api.CannonadeRules();
  const wasm = await wasmEngine(true);
  const native = startNative();
  for (const v of rules.variants()) {
    const lines = ['ucinewgame', `setoption name UCI_Variant value ${v.name}`, 'setoption name MultiPV value 2', 'position startpos', 'go depth 6'];
    for (const e of [wasm, native]) {
      e.send(...lines);
    }
    assert.deepEqual(timeless(await wasm.until(/^bestmove/)), timeless(await native.until(/^bestmove/)), v.name);
  }
  wasm.quit();
  native.quit();
});

for (const shared of [true, false]) {
  const how = shared ? 'with shared memory' : 'without shared memory';
  test(`answers during a search, ${how}`, async () => {
    const wasm = await wasmEngine(shared);
    wasm.send('setoption name UCI_Variant value chesstonia', 'position startpos', 'go infinite');
    await wasm.until(/^info depth 3 /);
    wasm.send('isready');
    const during = await wasm.until(/^readyok$|^bestmove/);
    assert.equal(during[during.length - 1], 'readyok', 'isready is answered while the search runs');
    wasm.send('stop');
    const best = await wasm.until(/^bestmove/);
    assert.match(best[best.length - 1], /^bestmove \S+/);

    // A new position stops the search (its move is given), then takes effect.
    wasm.send('go infinite');
    await wasm.until(/^info depth 2 /);
    wasm.send('position startpos moves a2a3', 'd');
    const after = await wasm.until(/^Fen: /);
    assert.ok(after.some((l) => l.startsWith('bestmove ')), after.join('\n'));
    assert.equal(after.filter((l) => l.startsWith('bestmove')).length, 1);

    // Pondering: after ponderhit the search ends on its clock.
    wasm.send('go ponder wtime 300 btime 300');
    await wasm.until(/^info depth 2 /);
    wasm.send('isready');
    const pondering = await wasm.until(/^readyok$|^bestmove/);
    assert.equal(pondering[pondering.length - 1], 'readyok', 'a ponder search waits for ponderhit');
    wasm.send('ponderhit');
    await wasm.until(/^bestmove \S+/);

    // A job is stopped as a search is.
    wasm.send('setoption name UCI_Variant value cannonshogi', 'position startpos', 'go perft 7');
    await new Promise((r) => setTimeout(r, 200));
    wasm.send('stop', 'isready');
    const stopped = await wasm.until('readyok');
    assert.ok(stopped.includes('info string perft stopped'), stopped.join('\n'));

    // And it goes on.
    wasm.send('position startpos', 'go depth 2');
    await wasm.until(/^bestmove \S+/);
    wasm.send('quit');
  });
}
