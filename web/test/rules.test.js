'use strict';
// The rules API (CannonadeRules) against the native engine: the same variants, the same legal
// moves, FENs and game ends along random games of every variant, the same refusals.

const test = require('node:test');
const assert = require('node:assert/strict');
const { spawnSync } = require('child_process');
const { loadBuild, nativeTool, requireNative, NATIVE } = require('./node-env.js');

const api = loadBuild();

// The native `legal` tool's answer for each `startpos|FEN [moves ...]` line.
function nativeLegal(variant, lines) {
  const r = spawnSync(NATIVE, ['legal', '--variant', variant], { input: lines.join('\n') + '\n', encoding: 'utf8', maxBuffer: 1 << 28 });
  assert.equal(r.status, 0, r.stderr);
  return r.stdout.trimEnd().split('\n');
}

// A small seeded generator, so a failing game can be played again.
function random(seed) {
  let s = seed >>> 0;
  return (n) => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s % n;
  };
}

test('variants are the native engine\'s, in its order', async () => {
  requireNative();
  const rules = await api.CannonadeRules();
  const native = nativeTool(['variants']).stdout.trimEnd().split('\n');
  const vs = rules.variants();
  assert.equal(vs.length * 2, native.length);
  vs.forEach((v, i) => {
    assert.equal(native[2 * i], `${v.name} (${v.files}x${v.ranks}, XBoard: ${v.xboardName}): ${v.fullName}`);
    assert.equal(native[2 * i + 1].trim(), `start: ${v.startFen}`);
    assert.ok(Array.isArray(v.handKinds.white) && Array.isArray(v.handKinds.black));
  });
});

test('random games: the same FENs, legal moves and game ends as the native engine', async () => {
  requireNative();
  const rules = await api.CannonadeRules();
  for (const v of rules.variants()) {
    for (let seed = 1; seed <= 3; seed++) {
      const pick = random(seed * 7919 + v.name.length);
      const g = rules.newGame(v.name);
      const asked = [];
      const ours = [];
      for (let ply = 0; ply < 120; ply++) {
        const legal = g.legalMoves();
        const out = g.outcome();
        const ucis = legal.map((m) => m.uci).sort();
        const result = out === null ? 'none' : `${out.result === '1/2-1/2' ? 'draw' : out.winner === g.sideToMove() ? 'win' : 'loss'}`;
        asked.push(`startpos moves ${g.moves().join(' ')}`.trimEnd());
        ours.push({ fen: g.fen(), moves: ucis.join(' '), result, out });
        if (legal.length === 0 || out !== null) {
          break;
        }
        const m = legal[pick(legal.length)];
        const facts = g.play(m.uci);
        assert.equal(facts.uci, m.uci);
      }
      const theirs = nativeLegal(v.name, asked);
      theirs.forEach((line, i) => {
        const [fen, moves, result] = line.split('\t');
        assert.equal(ours[i].fen, fen, `${v.name} seed ${seed} ply ${i}`);
        assert.equal(ours[i].moves, moves, `${v.name} seed ${seed} ply ${i}`);
        assert.equal(ours[i].result, result.split(':')[0], `${v.name} seed ${seed} ply ${i}: ${result}`);
      });
      // Taking every move back comes back to the start.
      while (g.undo() !== null) {
        // nothing
      }
      assert.equal(g.fen(), v.startFen);
      g.free();
    }
  }
});

test('refusals are the native engine\'s words, and change nothing', async () => {
  requireNative();
  const rules = await api.CannonadeRules();
  const bad = ['', '8/8/8 w - - 0 1', 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1', 'k7/8/8/8/8/8/8/7K w - - 0 1 extra', 'zzzz'];
  const native = nativeLegal('chess', bad.map((f) => (f === '' ? ' ' : f)).filter((l) => l.trim() !== ''));
  bad.filter((f) => f.trim() !== '').forEach((fen, i) => {
    const [kind, message] = native[i].split('\t');
    assert.equal(kind, 'error');
    assert.throws(() => rules.newGame('chess', fen), (e) => e instanceof Error && e.message === message);
  });
  assert.throws(() => rules.newGame('nosuchgame'), /unknown variant 'nosuchgame'/);
  const g = rules.newGame('chess');
  const before = g.fen();
  assert.throws(() => g.play('e2e5'), (e) => e.message === `'e2e5' is not a legal move in ${before}`);
  assert.throws(() => g.play(''), Error);
  assert.equal(g.fen(), before);
  assert.deepEqual(g.moves(), []);
  assert.equal(g.undo(), null);
});

test('move facts name squares and kinds as the page needs them', async () => {
  const rules = await api.CannonadeRules();
  const shogi = rules.newGame('cannonshogi', 'l3k3l/P7L/9/9/9/9/9/3U5/4K4[] w - - 0 1');
  const a9 = shogi.legalMoves().filter((m) => m.from === 'a8' && m.to === 'a9');
  assert.deepEqual(a9.map((m) => m.promotionChoice), [true, true]);
  const cannon = rules.newGame('cannon');
  const town = cannon.legalMoves().find((m) => m.uci === 'T@b1');
  assert.equal(town.from, null);
  assert.equal(town.drop, 'T');
  const shot = rules.newGame('cannon', '4t5/10/10/10/4s5/10/4S5/4S5/4S5/4T5[] w - - 0 1').legalMoves().find((m) => m.uci === 'e4e6');
  assert.deepEqual(shot.legs, ['e6', 'e4']);
  assert.equal(shot.capture, true);
  const chess = rules.newGame('chess', '4k3/P7/8/8/8/8/8/4K3 w - - 0 1');
  assert.deepEqual(chess.legalMoves().filter((m) => m.from === 'a7').map((m) => m.uci).sort(), ['a7a8b', 'a7a8n', 'a7a8q', 'a7a8r']);
  const mate = rules.newGame('chess', '7k/8/8/8/8/8/5PPP/r5K1 w - - 0 1');
  assert.equal(mate.outcome().reason, 'checkmate');
  assert.equal(mate.outcome().result, '0-1');
  assert.equal(mate.outcome().text, 'Black mates');
  assert.equal(mate.inCheck(), true);
});

// ---------------------------------------------------------------------------------------
// PGN and review: the native reader reads what the page writes, the page reads the files
// players have to the native engine's last positions, and a review of the page's own
// searches is `cannonade analyse`'s review.

const fs = require('fs');
const os = require('os');
const path = require('path');
const { ROOT, startEngine } = require('./node-env.js');

const PGN_DATA = path.join(ROOT, 'crates', 'core', 'tests', 'data', 'pgn');

// A game of `variant` played `plies` moves by a seeded choice.
function playedGame(rules, variant, plies, seed) {
  const pick = random(seed);
  const g = rules.newGame(variant);
  for (let i = 0; i < plies && g.outcome() === null; i++) {
    const legal = g.legalMoves();
    if (legal.length === 0) break;
    g.play(legal[pick(legal.length)].uci);
  }
  return g;
}

test('readPgn: XBoard\'s, pychess-variants\' and the match runner\'s games read to the native engine\'s last positions', async () => {
  const rules = await api.CannonadeRules();
  let files = 0;
  for (const dir of ['xboard', 'pychess', 'match']) {
    for (const name of fs.readdirSync(path.join(PGN_DATA, dir)).filter((f) => f.endsWith('.pgn'))) {
      const text = fs.readFileSync(path.join(PGN_DATA, dir, name), 'utf8');
      const [game] = rules.readPgn(text);
      const g = rules.newGame(game.variant, game.startFen);
      for (const m of game.moves) g.play(m);
      const fen = fs.readFileSync(path.join(PGN_DATA, dir, name.replace(/\.pgn$/, '.fen')), 'utf8').trim();
      assert.equal(g.fen(), fen, `${dir}/${name}`);
      assert.equal(typeof game.headers, 'object');
      files += 1;
    }
  }
  assert.equal(files, 20);
  assert.throws(() => rules.readPgn('[Event "a"]\n\n1. e4 e4 *\n'), (e) => e instanceof Error && /^game 1 \(line 1\): 'e4' is not a legal move in /.test(e.message));
  assert.throws(() => rules.readPgn('1. e4 *', 'nosuch'), /unknown variant 'nosuch'/);
  assert.deepEqual(rules.readPgn(''), []);
});

test('pgn: every game the page writes is read by the native `cannonade analyse`, and by readPgn', async () => {
  requireNative();
  const rules = await api.CannonadeRules();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cannonade-pgn-'));
  let text = '';
  const games = [];
  for (const v of rules.variants()) {
    const g = playedGame(rules, v.name, 30, v.name.length * 31);
    games.push(g);
    text += g.pgn({ White: 'You', Black: 'Cannonade', Event: `page ${v.name}` });
    const back = rules.readPgn(g.pgn())[0];
    assert.equal(back.variant, v.name);
    assert.deepEqual(back.moves, g.moves());
  }
  const file = path.join(dir, 'games.pgn');
  fs.writeFileSync(file, text);
  const out = nativeTool(['analyse', '--pgn', file, '--out', path.join(dir, 'out.pgn'), '--depth', '1']);
  assert.match(out.stdout, new RegExp(`^${games.length} of ${games.length} games analysed`, 'm'), out.stderr);
  assert.throws(() => games[0].pgn({ 'Bad Name': 'x' }), /^Error: PGN headers: 'Bad Name' is not a tag name/);
  fs.rmSync(dir, { recursive: true });
});

// Each position of a game searched by the browser build as `cannonade analyse` searches it
// (one table for the game, cleared before it), its last full line and score kept.
async function searchPositions(wasm, variant, moves, depth, rules) {
  wasm.send('ucinewgame', `setoption name UCI_Variant value ${variant}`);
  const positions = [];
  const g = rules.newGame(variant);
  for (let i = 0; i <= moves.length; i++) {
    if (i === moves.length && g.outcome() !== null) {
      positions.push({ score: null, pv: [] });
      break;
    }
    wasm.send(`position startpos moves ${moves.slice(0, i).join(' ')}`.trimEnd(), `go depth ${depth}`);
    const lines = await wasm.until(/^bestmove/);
    let last = null;
    for (const l of lines) {
      const m = /^info .*score (cp|mate) (-?\d+)(?! (lower|upper)bound).* pv (.*)$/.exec(l);
      if (m && !/ multipv (?!1 )/.test(l) && !/bound/.test(l)) last = { score: { [m[1]]: Number(m[2]) }, pv: m[4].trim().split(' ') };
    }
    const best = lines[lines.length - 1].split(' ')[1];
    if (last === null || last.pv[0] !== best) {
      last = { score: last && last.score, pv: [best] };
    }
    positions.push(last);
    if (i < moves.length) g.play(moves[i]);
  }
  return positions;
}

test('review: the browser build\'s searches judged as `cannonade analyse` judges its own', async () => {
  requireNative();
  const rules = await api.CannonadeRules();
  const wasm = await startEngine(api);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cannonade-review-'));
  const depth = 4;
  for (const variant of ['chess', 'cannonshogi', 'cannon']) {
    const g = playedGame(rules, variant, 16, 7 + variant.length);
    const headers = { Event: 'review test', White: 'A', Black: 'B' };
    const file = path.join(dir, `${variant}.pgn`);
    fs.writeFileSync(file, g.pgn(headers));
    const out = path.join(dir, `${variant}-out.pgn`);
    nativeTool(['analyse', '--pgn', file, '--out', out, '--depth', String(depth), '--threads', '1']);
    const positions = await searchPositions(wasm, variant, g.moves(), depth, rules);
    const r = rules.review({ variant, startFen: null, moves: g.moves(), positions, headers, limit: `depth ${depth}` });
    assert.equal(r.pgn, fs.readFileSync(out, 'utf8'), variant);
    assert.equal(r.moves.length, g.moves().length);
    const marks = r.moves.filter((m) => m.mark !== null).length;
    const t = r.totals;
    assert.equal(marks, t.white.inaccuracies + t.white.mistakes + t.white.blunders + t.black.inaccuracies + t.black.mistakes + t.black.blunders);
  }
  assert.throws(() => rules.review({ variant: 'chess', moves: ['e2e4'], positions: [] }), /^Error: review: 0 positions for 1 moves/);
  assert.throws(() => rules.review({ variant: 'chess', moves: [], positions: [{ score: { cp: 'x' } }] }), /^Error: review: /);
  wasm.quit();
  fs.rmSync(dir, { recursive: true });
});
