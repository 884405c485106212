'use strict';
// No input kills the browser build, and bad input gets the native engine's answer: the kinds
// of bad input the protocol fuzzer (tests/program/protocol_fuzz.rs) sends (junk lines, huge lines,
// wild numbers, mutated FENs and moves, bad options and go parameters) go, seeded, to the
// browser build and to the native program, line by line; after each, both are asked
// `isready`, and everything they wrote must be the same. FUZZ_SEED and FUZZ_LINES change the
// run (defaults: a fixed seed, 300 lines in each mode).

const test = require('node:test');
const assert = require('node:assert/strict');
const { loadBuild, startEngine, startNative, requireNative } = require('./node-env.js');

const api = loadBuild();
const SEED = Number(process.env.FUZZ_SEED || 20261202);
const LINES = Number(process.env.FUZZ_LINES || 300);

function rng(seed) {
  let x = BigInt(seed) || 1n;
  const next = () => {
    // xorshift64*
    x ^= x >> 12n;
    x ^= (x << 25n) & 0xffffffffffffffffn;
    x ^= x >> 27n;
    return Number(((x * 0x2545f4914f6cdd1dn) & 0xffffffffffffffffn) >> 11n);
  };
  const r = {
    below: (n) => next() % Math.max(1, n),
    chance: (p) => next() % 100 < p,
    pick: (a) => a[r.below(a.length)],
  };
  return r;
}

const WILD = ['0', '1', '-1', '7', '100', '-100000', '2147483647', '2147483648', '4294967296', '9223372036854775807', '9223372036854775808', '18446744073709551615', '99999999999999999999999999', '-99999999999999999999999999', '1e300', 'NaN', 'inf', '-0', '0x10', '1.5', '', 'abc'];
const COMMANDS = ['uci', 'isready', 'setoption', 'ucinewgame', 'position', 'go', 'stop', 'ponderhit', 'quit', 'd', 'eval', 'bench', 'debug', 'register'];

function wild(r) {
  return r.chance(30) ? String(r.below(3000)) : r.pick(WILD);
}

function junkToken(r) {
  const alphabet = Array.from('abcdefghijklmnopqrstuvwxyzKQRBNPCSTkqrbnpcst0123456789/@+=-_[]*:.,?!é\u0000\t');
  let s = '';
  for (let i = 0, n = 1 + r.below(12); i < n; i++) {
    s += r.pick(alphabet);
  }
  return s;
}

function mutate(r, s) {
  const c = Array.from(s);
  const pieces = Array.from('KQRBNPCSTAUIGLkqrbnpcstaugil12345678910*/[]-+ wb');
  for (let k = 0, n = 1 + r.below(3); k < n; k++) {
    const at = r.below(c.length + 1);
    switch (r.below(6)) {
      case 0:
        c.splice(Math.min(at, c.length - 1), 1);
        break;
      case 1:
        c.splice(at, 0, r.pick(pieces));
        break;
      case 2:
        c[Math.min(at, c.length - 1)] = r.pick(pieces);
        break;
      case 3:
        c.length = at;
        break;
      case 4:
        c.splice(at, 0, ...wild(r));
        break;
      default:
        c.splice(at, 0, ' ', ...junkToken(r));
    }
  }
  return c.join('');
}

function junkLine(r) {
  let line;
  switch (r.below(6)) {
    case 0:
      line = 'y'.repeat(1 + r.below(200000));
      break;
    case 1:
      line = Array.from({ length: 1 + r.below(6) }, () => junkToken(r)).join(' ');
      break;
    case 2:
      line = `${junkToken(r)} ${wild(r)}`;
      break;
    case 3:
      line = ' \t ';
      break;
    case 4:
      line = '\ufeffuci';
      break;
    default:
      line = junkToken(r);
  }
  const first = (line.trim().split(/\s+/)[0] || '').replace(/\u0000/g, '');
  return COMMANDS.includes(first) ? `z${line}` : line;
}

// Options whose answers depend on the machine rather than the engine: a table size the
// browser cannot give (4 GB at most), threads (the browser build has none, and a native
// search on several is not a fixed tree), files (the browser has none).
const MACHINE_OPTIONS = ['Hash', 'Threads', 'EvalFile'];

function optionsOf(uciLines) {
  return uciLines
    .filter((l) => l.startsWith('option name '))
    .map((l) => {
      const m = /^option name (.*?) type (\S+)(?: default (.*?))?(?: min (\S+) max (\S+))?((?: var \S+)*)$/.exec(l);
      return m && { name: m[1], type: m[2], vars: (m[6] || '').trim().split(/\s*var\s+/).filter(Boolean) };
    })
    .filter((o) => o && !MACHINE_OPTIONS.includes(o.name));
}

// One line of bad (or now and then good) input.
function badLine(r, s) {
  switch (r.below(9)) {
    case 0:
      return junkLine(r);
    case 1: {
      const fen = r.chance(60) ? mutate(r, s.fen) : s.fen;
      return r.chance(50) ? `position fen ${fen}` : `position fen ${fen} moves ${mutate(r, r.pick(s.legal.length ? s.legal : ['e2e4']))}`;
    }
    case 2: {
      const moves = [];
      for (let i = 0, n = 1 + r.below(4); i < n; i++) {
        moves.push(r.chance(70) && s.legal.length ? r.pick(s.legal) : junkToken(r));
      }
      return r.pick([`position startpos moves ${moves.join(' ')}`, 'position', 'position fen', `position ${junkToken(r)}`, 'position startpos moves']);
    }
    case 3: {
      const o = r.pick(s.options);
      const value = o.type === 'combo' && r.chance(40) ? r.pick(o.vars) : r.chance(50) ? wild(r) : junkToken(r);
      return r.pick([`setoption name ${o.name} value ${value}`, `setoption name ${o.name}`, `setoption name ${junkToken(r)} value ${value}`, 'setoption', `setoption ${junkToken(r)}`, `setoption name value ${value}`]);
    }
    case 4: {
      const keys = ['wtime', 'btime', 'winc', 'binc', 'movestogo', 'movetime', 'nodes', 'mate', 'searchmoves', junkToken(r)];
      const params = [];
      for (let i = 0, n = r.below(5); i < n; i++) {
        params.push(r.pick(keys), r.chance(80) ? wild(r) : '');
      }
      // Always bounded, so that both searches are the same fixed tree.
      return `go ${params.join(' ')} depth ${1 + r.below(3)}`.replace(/\s+/g, ' ');
    }
    case 5:
      return r.pick([`go perft ${r.pick(['-1', 'abc', '21', '99999999999999999999', '1.5', ''])}`, `go perft ${r.below(3)}`, `bench ${r.pick(['0', '65', 'abc', '-3', '1e3'])}`]);
    case 6:
      return r.pick(['debug on', `register ${junkToken(r)}`, 'ucinewgame', 'stop', 'ponderhit', 'd', 'eval', '']);
    case 7:
      return `setoption name UCI_Variant value ${r.chance(80) ? r.pick(s.variants) : mutate(r, r.pick(s.variants))}`;
    default:
      return mutate(r, r.pick(['position startpos', 'go depth 1', 'setoption name MultiPV value 2', 'd', 'isready']));
  }
}

// A search with no limit left (a mangled `go depth`: the engine refuses the word and searches
// until `stop`, natively too) is given one first, so that both engines' searches end by
// themselves in the same tree (a later good limit still replaces it).
function bounded(r, line) {
  const words = line.trim().split(/\s+/);
  if (words[0] !== 'go' || words[1] === 'perft') {
    return line;
  }
  const at = line.indexOf('go') + 2;
  return `${line.slice(0, at)} depth ${1 + r.below(3)}${line.slice(at)}`;
}

// What a command's answer waits for besides `isready`: a search's move, a perft's total.
function answerEnd(line) {
  const words = line.trim().split(/\s+/);
  if (words[0] !== 'go') {
    return null;
  }
  if (words[1] === 'perft') {
    return /^(Nodes searched|info string error)/;
  }
  return /^bestmove/;
}

// A search with a clock (the fuzzer's wild times) ends where the clock says: what it owes is
// its errors and one move, not the same lines.
function normalise(line, lines) {
  if (answerEnd(line) === null || /^\s*go\s+perft(\s|$)/.test(line)) {
    return lines;
  }
  return lines.filter((l) => !l.startsWith('info ') || l.startsWith('info string')).map((l) => (l.startsWith('bestmove') ? 'bestmove' : l));
}

for (const shared of [true, false]) {
  test(`bad input ${shared ? 'with' : 'without'} shared memory: the native answers, and the engine goes on`, async () => {
    requireNative();
    globalThis.crossOriginIsolated = shared;
    const wasm = await startEngine(api);
    const native = startNative();
    const both = [wasm, native];
    const r = rng(SEED + (shared ? 0 : 1));
    const ask = async (line) => {
      for (const e of both) {
        e.send(line);
      }
      const end = answerEnd(line);
      const out = [];
      for (const e of both) {
        const lines = end === null ? [] : await e.until(end, 120000);
        e.send('isready');
        out.push(normalise(line, lines.concat(await e.until('readyok', 120000))));
      }
      return out;
    };
    const [uciWasm, uciNative] = await ask('uci');
    assert.deepEqual(uciWasm, uciNative);
    const rules = await api.CannonadeRules();
    const s = { options: optionsOf(uciNative), variants: rules.variants().map((v) => v.name), fen: '', legal: [] };
    const refresh = async () => {
      const [d] = await ask('d');
      s.fen = d.find((l) => l.startsWith('Fen: ')).slice(5);
      const [perft] = await ask('go perft 1');
      s.legal = perft.filter((l) => /^\S+: \d+$/.test(l)).map((l) => l.split(':')[0]);
    };
    await refresh();
    for (let i = 0; i < LINES; i++) {
      const line = bounded(r, badLine(r, s));
      if (process.env.FUZZ_DEBUG) {
        console.error(`line ${i}: ${JSON.stringify(line.slice(0, 200))}`);
      }
      const [ours, theirs] = await ask(line);
      assert.deepEqual(ours, theirs, `seed ${SEED}, line ${i}: ${JSON.stringify(line.slice(0, 200))}`);
      if (/^\s*(position|setoption|ucinewgame)/.test(line)) {
        await refresh();
      }
    }
    wasm.send('quit');
    native.quit();
  });
}
