// The page in a real browser: Debian's /usr/bin/chromium driven by playwright-core (never a
// browser a tool downloads), against web/dist/ served on localhost by web/serve.mjs.
//
//   node test/page.spec.mjs            (from web/, after scripts/web.sh build)
//   CHROMIUM=/path/to/chromium SCREENSHOTS=/tmp/shots node test/page.spec.mjs  (0: none)
//
// For each game: the page loads it, a legal move made with the mouse is played, the engine
// answers with a legal move (checked by the rules API), and an illegal gesture sends nothing
// to the engine. Then each special move once, by mouse (drop, Cannon Shogi's promotion choice,
// the Swedish cannon's entry, a Cannon shot, a town's placement, a Chesstonia projectile
// loaded and fired, chess's promotion and castling), and a bad FEN gets a message while the
// page keeps working. The analysis board shows lines for a pasted FEN (MultiPV, win chances,
// deeper as it searches, stopped, a line's move played); a short game is reviewed (marks,
// totals, graph, annotated PGN); PGN from pychess-variants, XBoard and `cannonade match` is
// read through the page. Each game's board is saved as docs/screenshots/web-<game>.png, the
// analysis board as web-analysis.png, the review as web-review.png.
// Engine searches are short (0.2 s a move, 5000 nodes a reviewed position, the analysis
// stopped as soon as its lines are checked): the whole run takes well under a minute here.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const here = dirname(fileURLToPath(import.meta.url));
const web = join(here, '..');
const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';
// SCREENSHOTS: a folder for the pictures (default docs/screenshots/), or 0 for none
const SCREENSHOTS = process.env.SCREENSHOTS !== '0';
const shots = process.env.SCREENSHOTS && SCREENSHOTS ? process.env.SCREENSHOTS : join(web, '..', 'docs', 'screenshots');
const MOVETIME = 0.2;

let server;
let base;
let browser;
let page;
const pageErrors = [];

async function startServer() {
  const child = spawn(process.execPath, [join(web, 'serve.mjs'), '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', d => {
      out += d;
      const m = /http:\/\/localhost:(\d+)\//.exec(out);
      if (m) resolve(`http://localhost:${m[1]}/`);
    });
    child.on('exit', code => reject(new Error(`server exited (${code})`)));
  });
  return { child, url };
}

before(async () => {
  ({ child: server, url: base } = await startServer());
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  page = await browser.newPage({ viewport: { width: 1400, height: 950 } });
  page.setDefaultTimeout(10_000);
  page.on('pageerror', e => pageErrors.push(e.message));
  page.on('console', m => {
    if (m.type() === 'error') pageErrors.push(`console: ${m.text()}`);
  });
  await page.goto(`${base}?movetime=${MOVETIME}&side=white&skill=20`);
  await page.waitForSelector('body[data-ready=true]', { timeout: 60_000 });
});

after(async () => {
  await browser?.close();
  server?.kill();
});

// ---- what the page knows (read through its test hook) ----

const hook = fn => page.evaluate(fn);

/** The game's state: moves played, FEN, whether the engine is thinking, the board's own FEN. */
function state() {
  return page.evaluate(() => {
    const { controller, engine, board } = window.cannonadePage;
    return {
      variant: controller.variant.name,
      moves: controller.moves(),
      fen: controller.fen(),
      thinking: controller.isThinking,
      sent: engine.sent.length,
      engineSent: engine.sent.slice(),
      over: controller.isOver(),
      loading: controller.loading,
      boardFen: board.api?.getFen?.() ?? null,
    };
  });
}

async function waitFor(cond, what, timeout = 20_000) {
  const t0 = Date.now();
  for (;;) {
    const s = await state();
    if (cond(s)) return s;
    if (Date.now() - t0 > timeout) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(s)}`);
    await page.waitForTimeout(50);
  }
}

/** Legal moves of the live position, from the rules API. */
const legalMoves = () => page.evaluate(() => window.cannonadePage.controller.game.legalMoves());

/** Whether `reply` is legal after `moves` from the game's start, asked of the rules API. */
const legalAfter = (moves, reply) =>
  page.evaluate(
    ([moves, reply]) => {
      const { rules, controller } = window.cannonadePage;
      const g = rules.newGame(controller.variant.name, controller.startFen);
      for (const m of moves) g.play(m);
      const ok = g.legalMoves().some(m => m.uci === reply);
      g.free?.();
      return ok;
    },
    [moves, reply],
  );

// ---- the person's hand ----

async function center(square) {
  // the board in view (filling in the FEN below it may have scrolled the page)
  await page.locator('#board').scrollIntoViewIfNeeded();
  const c = await page.evaluate(sq => window.cannonadePage.board.squareCenter(sq), square);
  assert.ok(c, `no square ${square}`);
  return c;
}

async function drag(from, to) {
  const a = await center(from);
  const b = await center(to);
  await page.mouse.move(a.x, a.y);
  await page.mouse.down();
  await page.mouse.move((a.x + b.x) / 2, (a.y + b.y) / 2, { steps: 4 });
  await page.mouse.move(b.x, b.y, { steps: 4 });
  await page.mouse.up();
}

async function clickSquare(sq) {
  const c = await center(sq);
  await page.mouse.click(c.x, c.y);
}

/** A piece in the hand shown below the board (the person's), dragged onto a square. */
async function dragFromHand(letter, to, color = 'white') {
  const role = `${letter.toLowerCase()}-piece`;
  const piece = page.locator(`#pocket-bottom piece.${color}.${role}`);
  const box = await piece.boundingBox();
  assert.ok(box, `no ${letter} in the hand`);
  const b = await center(to);
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(b.x, b.y, { steps: 8 });
  await page.mouse.up();
}

// ---- the page's own controls ----

async function newGame(variant, side = 'white') {
  await page.selectOption('#variant', variant);
  await page.check(`input[name=side][value=${side}]`);
  await page.check('input[name=timing][value=movetime]');
  await page.fill('#movetime', String(MOVETIME));
  await page.click('#new-game');
  await waitFor(s => s.variant === variant && !s.loading, `a new game of ${variant}`);
}

async function setFen(fen) {
  await page.fill('#fen', fen);
  await page.click('#fen-load');
}

async function setPosition(variant, fen) {
  await newGame(variant);
  await setFen(fen);
  await waitFor(s => s.fen.split(' ')[0] === fen.split(' ')[0] && !s.thinking && !s.loading, `the position ${fen}`);
}

/** Plays a gesture and waits for the move it makes and the engine's reply (checked legal). */
async function playAndAnswer(gesture, expectUci) {
  const before = await state();
  await gesture();
  const played = await waitFor(s => s.moves.length > before.moves.length, `the move ${expectUci}`, 5_000);
  assert.equal(played.moves[before.moves.length], expectUci);
  const answered = await waitFor(
    s => (s.moves.length > before.moves.length + 1 && !s.thinking) || s.over,
    'the engine to answer',
  );
  if (!answered.over || answered.moves.length > before.moves.length + 1) {
    const reply = answered.moves[before.moves.length + 1];
    assert.ok(
      await legalAfter(answered.moves.slice(0, before.moves.length + 1), reply),
      `the engine's ${reply} is legal`,
    );
  }
  return answered;
}

async function screenshot(name) {
  if (!SCREENSHOTS) return;
  mkdirSync(shots, { recursive: true });
  await page.waitForTimeout(300); // let the last animation finish
  const area = page.locator('main');
  await area.screenshot({ path: join(shots, `web-${name}.png`) });
}

// ---- the tests ----

test('the page lists the eight games', async () => {
  const names = await hook(() => window.cannonadePage.rules.variants().map(v => v.name));
  assert.deepEqual(names.length, 8, names.join(', '));
  const options = await page.$$eval('#variant option', os => os.map(o => o.value));
  assert.deepEqual(options, names);
});

for (const variant of [
  'chess',
  'cannonshogi',
  'swedishcannon',
  'swedishcannon1',
  'cannonrider',
  'cannonriderscorpion',
  'chesstonia',
  'cannon',
]) {
  test(`${variant}: a mouse move is played, the engine answers legally, an illegal gesture sends nothing`, async () => {
    await newGame(variant);
    const moves = await legalMoves();
    assert.ok(moves.length > 0);
    // a piece's move where there is one (else the game's first move is a drop: Cannon's town)
    const mv = moves.find(m => m.from && !m.drop) ?? moves[0];
    const gesture = mv.drop ? () => dragFromHand(mv.drop, mv.to) : () => drag(mv.from, mv.to);
    // where one gesture matches several moves, the page asks: take the first offered
    const matches = moves.filter(m => (mv.drop ? m.drop === mv.drop && m.to === mv.to : m.from === mv.from && m.to === mv.to));
    if (matches.length > 1) {
      await gesture();
      await page.click('.chooser .choice >> nth=0');
      await waitFor(s => s.moves.length >= 2 && !s.thinking, 'the engine to answer');
    } else {
      await playAndAnswer(gesture, mv.uci);
    }
    const s = await state();
    assert.ok(!s.over || s.moves.length >= 2);

    // an illegal gesture: a piece of the person's dragged where it cannot go
    const now = await legalMoves();
    const movable = now.filter(m => m.from);
    if (movable.length) {
      const from = movable[0].from;
      const dests = new Set(now.filter(m => m.from === from).map(m => m.to));
      const files = await hook(() => window.cannonadePage.controller.variant.files);
      const ranks = await hook(() => window.cannonadePage.controller.variant.ranks);
      let target = null;
      for (let f = 0; f < files && !target; f++)
        for (let r = 1; r <= ranks && !target; r++) {
          const sq = String.fromCharCode(97 + f) + r;
          if (sq !== from && !dests.has(sq)) target = sq;
        }
      const before = await state();
      await drag(from, target);
      await page.waitForTimeout(300);
      const afterIllegal = await state();
      assert.equal(afterIllegal.sent, before.sent, 'nothing sent to the engine');
      assert.deepEqual(afterIllegal.moves, before.moves, 'no move played');
      assert.equal(afterIllegal.boardFen, before.boardFen, 'the piece went back');
    }
    // Cannon Shogi's picture is taken with pieces in both hands (the drop test below)
    if (variant !== 'cannonshogi') await screenshot(variant);
  });
}

test('Cannon Shogi: a drop from the hand', async () => {
  // white holds black's a7 soldier and c9 silver, black holds white's a3 soldier
  await setPosition('cannonshogi', 'ln1gkgsnl/1rci1uab1/2p1p1p1p/9/9/9/2P1P1P1P/1BAU1ICR1/LNSGKGSNL[PSp] w - - 0 1');
  await playAndAnswer(() => dragFromHand('P', 'e5'), 'P@e5');
  await screenshot('cannonshogi');
});

test('Cannon Shogi: promoting or not is asked, and promoting is played', async () => {
  await setPosition('cannonshogi', 'lnsgkgsnl/1rci1uab1/p1p1p1p1p/4P4/9/9/P1P3P1P/1BAU1ICR1/LNSGKGSNL[] w - - 0 1');
  const before = await state();
  await drag('e6', 'e7');
  await page.waitForSelector('.chooser');
  const labels = await page.$$eval('.chooser .choice', bs => bs.map(b => b.dataset.choice));
  assert.equal(labels.length, 2, labels.join(' '));
  const promoting = labels.findIndex(l => l.includes('+'));
  assert.ok(promoting >= 0, `a promoting choice among ${labels}`);
  assert.equal(before.sent, (await state()).sent, 'nothing sent while the chooser is open');
  await page.click(`.chooser .choice >> nth=${promoting}`);
  const s = await waitFor(s => s.moves.length >= 1, 'the move');
  assert.equal(s.moves[0], 'e6e7+');
  await waitFor(s => s.moves.length >= 2 && !s.thinking, 'the engine to answer');
});

test('Swedish Cannon Chess: the cannon enters on a pawn, which is pushed on', async () => {
  await newGame('swedishcannon');
  const s = await playAndAnswer(() => dragFromHand('C', 'e2'), 'C@e2');
  assert.ok(s.moves[0] === 'C@e2');
  const pawnMoved = await hook(() => window.cannonadePage.controller.game.moves().length);
  assert.ok(pawnMoved >= 2);
  // the second cannon by clicks: the hand's cannon, then a pawn it may enter on
  const entry = (await legalMoves()).find(m => m.drop === 'C' && m.displaced);
  assert.ok(entry, 'a second entry is legal');
  const hand = page.locator('#pocket-bottom piece.white.c-piece');
  await playAndAnswer(async () => {
    await hand.click();
    await clickSquare(entry.to);
  }, entry.uci);
});

test('Cannon: a town is placed from the hand', async () => {
  await newGame('cannon');
  await playAndAnswer(() => dragFromHand('T', 'e1'), 'T@e1');
});

test('Cannon: a shot takes without moving', async () => {
  await setPosition('cannon', '4t5/10/10/10/s9/10/S9/S9/S9/4T5[] w - - 0 1');
  const s = await playAndAnswer(() => drag('a4', 'a6'), 'a4a6');
  assert.ok(s.moves[0] === 'a4a6');
});

test('Chesstonia: a projectile is loaded, then fired', async () => {
  await newGame('chesstonia');
  await playAndAnswer(() => drag('l4', 'l1'), 'l4l1');
  await setPosition('chesstonia', '1*rnbqkbnr**/**pppppppp**/pc9S/w10F/f11/s5P3CP/**PPPP1PPP**/**RNBQKBNR*W w KQkq - 0 1');
  await playAndAnswer(() => drag('l1', 'e3'), 'l1e3');
});

test('chess: a promotion asks for the piece', async () => {
  await setPosition('chess', '8/4P1k1/8/8/8/8/8/4K3 w - - 0 1');
  await drag('e7', 'e8');
  await page.waitForSelector('.chooser');
  const labels = await page.$$eval('.chooser .choice', bs => bs.map(b => b.dataset.choice));
  assert.equal(labels.length, 4, labels.join(' '));
  const knight = labels.findIndex(l => /N/.test(l));
  await page.click(`.chooser .choice >> nth=${knight}`);
  const s = await waitFor(s => s.moves.length >= 1, 'the promotion');
  assert.equal(s.moves[0], 'e7e8n');
});

test('chess: castling by moving the king two squares', async () => {
  await setPosition('chess', 'r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1');
  await playAndAnswer(() => drag('e1', 'g1'), 'e1g1');
});

test('chess: click, click', async () => {
  await newGame('chess');
  await playAndAnswer(async () => {
    await clickSquare('d2');
    await clickSquare('d4');
  }, 'd2d4');
});

test('a bad FEN gets a message and the page keeps working', async () => {
  await newGame('chess');
  const before = await state();
  await setFen('this is not a position');
  await page.waitForSelector('#io-message.error');
  const msg = await page.textContent('#io-message');
  assert.match(msg, /FEN refused/);
  const s = await state();
  assert.equal(s.fen, before.fen, 'the game stands as it was');
  await playAndAnswer(() => drag('e2', 'e4'), 'e2e4');
});

test('the end of the game is shown with its reason', async () => {
  await setPosition('chess', '6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1');
  const before = await state();
  await drag('a1', 'a8');
  const s = await waitFor(s => s.over, 'the mate');
  assert.deepEqual(s.moves, ['a1a8']);
  const outcome = await hook(() => window.cannonadePage.controller.outcome());
  assert.equal(outcome.result, '1-0');
  const status = await page.textContent('#status');
  assert.ok(status.includes('1-0') && status.includes(outcome.text), status);
  assert.ok((await page.textContent('#moves .result')).includes(outcome.text));
  await page.waitForTimeout(300);
  const after = await state();
  assert.ok(!after.engineSent.slice(before.sent).some(l => l.startsWith('go')), 'no search after the end');
});

test('clocks: both shown and running, the engine gets wtime/btime/winc/binc', async () => {
  await page.selectOption('#variant', 'chess');
  await page.check('input[name=side][value=white]');
  await page.check('input[name=timing][value=clock]');
  await page.fill('#minutes', '0.25');
  await page.fill('#increment', '1');
  await page.click('#new-game');
  await waitFor(s => s.variant === 'chess' && s.moves.length === 0, 'a new game with clocks');
  // the clocks are shown once the engine has taken the new game (a moment after it is set up)
  await page.waitForSelector('#clock-top .clock-face', { state: 'visible' });
  assert.ok(await page.isVisible('#clock-top .clock-face'));
  assert.ok(await page.isVisible('#clock-bottom .clock-face'));
  const t0 = await page.textContent('#clock-bottom .clock-face');
  await page.waitForTimeout(1200);
  const t1 = await page.textContent('#clock-bottom .clock-face');
  assert.notEqual(t0, t1, 'the clock of the side to move runs');
  assert.ok(await page.isVisible('#clock-bottom .clock-face.running'));
  const s = await playAndAnswer(() => drag('e2', 'e4'), 'e2e4');
  const go = s.engineSent.filter(l => l.startsWith('go ')).pop();
  assert.match(go, /^go wtime \d+ btime \d+ winc 1000 binc 1000$/);
  // back to a time per move for what follows
  await page.check('input[name=timing][value=movetime]');
});

test('FEN and PGN out, PGN in', async () => {
  await newGame('chess');
  await playAndAnswer(() => drag('e2', 'e4'), 'e2e4');
  const s = await state();
  assert.equal(await page.inputValue('#fen'), s.fen);
  const pgn = await page.inputValue('#pgn');
  const sans = await hook(() => [...document.querySelectorAll('#moves .move:not(.blank)')].map(m => m.textContent));
  for (const san of sans) assert.ok(pgn.includes(san), `${san} in the PGN`);
  // a game read back: the same moves
  await page.fill('#pgn', pgn);
  await page.click('#pgn-load');
  await page.waitForSelector('#io-message:not(.error)');
  const back = await waitFor(s => s.moves.length >= 2 && !s.loading, 'the game read back');
  assert.deepEqual(back.moves.slice(0, 2), s.moves.slice(0, 2));
  // a bad PGN: a message, the game stays
  await page.fill('#pgn', '1. e4 e5 2. Ke3 Ke7');
  await page.click('#pgn-load');
  await page.waitForSelector('#io-message.error');
  assert.match(await page.textContent('#io-message'), /PGN refused/);
  assert.deepEqual((await state()).moves.slice(0, 2), s.moves.slice(0, 2));
});

test('playing black: the engine opens, the board is turned, a mouse move is played', async () => {
  await newGame('swedishcannon', 'black');
  const first = await waitFor(s => s.moves.length >= 1 && !s.thinking, "the engine's first move");
  assert.equal(await hook(() => window.cannonadePage.board.orientation), 'black');
  assert.ok(await page.isVisible('.cg-wrap.orientation-black'));
  // a quiet pawn move that keeps the e-file shut (a cannon entered on e2 mates through a
  // single screen: a careless first move can lose at once against the real engine)
  const quiet = moves => ['e7e6', 'd7d6', 'd7d5', 'g7g6'].map(u => moves.find(m => m.uci === u)).find(Boolean) ?? moves.find(m => m.from && !m.drop);
  const mv = quiet(await legalMoves());
  await playAndAnswer(() => drag(mv.from, mv.to), mv.uci);
  assert.ok(first.moves.length === 1);
  // the board turned back by hand: moves by mouse still land where they should
  await page.click('#flip');
  assert.equal(await hook(() => window.cannonadePage.board.orientation), 'white');
  if ((await state()).over) return;
  const again = quiet(await legalMoves());
  await playAndAnswer(() => drag(again.from, again.to), again.uci);
});

test("the engine's level: Skill Level, or UCI_LimitStrength with UCI_Elo", async () => {
  await page.check('input[name=level-kind][value=elo]');
  await page.fill('#elo', '1200');
  await newGame('chess');
  let sent = (await state()).engineSent;
  const lastNewGame = sent.lastIndexOf('ucinewgame');
  const after = sent.slice(lastNewGame);
  assert.ok(after.includes('setoption name UCI_LimitStrength value true'), after.join(' | '));
  assert.ok(after.includes('setoption name UCI_Elo value 1200'), after.join(' | '));
  await page.check('input[name=level-kind][value=skill]');
  await page.fill('#skill', '3');
  await newGame('chess');
  sent = (await state()).engineSent;
  const tail = sent.slice(sent.lastIndexOf('ucinewgame'));
  assert.ok(tail.includes('setoption name UCI_LimitStrength value false'), tail.join(' | '));
  assert.ok(tail.includes('setoption name Skill Level value 3'), tail.join(' | '));
  await playAndAnswer(() => drag('e2', 'e4'), 'e2e4');
  // full strength again for what follows
  await page.fill('#skill', '20');
});

test('take back and start again', async () => {
  await newGame('chess');
  await playAndAnswer(() => drag('g1', 'f3'), 'g1f3');
  await page.click('#takeback');
  let s = await waitFor(s => s.moves.length === 0, 'the take-back');
  assert.equal(s.moves.length, 0);
  await playAndAnswer(() => drag('b1', 'c3'), 'b1c3');
  await page.click('#new-game');
  s = await waitFor(s => s.moves.length === 0, 'a new game');
});

test('touch: tap a piece, tap its square; tap a hand piece, tap a square', async () => {
  const context = await browser.newContext({ viewport: { width: 480, height: 1500 }, hasTouch: true, isMobile: true });
  const touchPage = await context.newPage();
  touchPage.on('pageerror', e => pageErrors.push(e.message));
  try {
    await touchPage.goto(`${base}?movetime=${MOVETIME}&side=white&variant=cannon`);
    await touchPage.waitForSelector('body[data-ready=true]', { timeout: 60_000 });
    const touchState = () => touchPage.evaluate(() => window.cannonadePage.controller.moves());
    const tapSquare = async sq => {
      const c = await touchPage.evaluate(sq => window.cannonadePage.board.squareCenter(sq), sq);
      await touchPage.touchscreen.tap(c.x, c.y);
    };
    // the town from the hand
    const town = await touchPage.locator('#pocket-bottom piece.white.t-piece').boundingBox();
    await touchPage.touchscreen.tap(town.x + town.width / 2, town.y + town.height / 2);
    await tapSquare('f1');
    await touchPage.waitForFunction(() => window.cannonadePage.controller.moves().length >= 2 && !window.cannonadePage.controller.isThinking);
    assert.equal((await touchState())[0], 'T@f1');
    // a soldier's step
    await tapSquare('c4');
    await tapSquare('c5');
    await touchPage.waitForFunction(() => window.cannonadePage.controller.moves().length >= 3);
    assert.equal((await touchState())[2], 'c4c5');
  } finally {
    await context.close();
  }
});

// ---- the analysis board and the review ----

/** The engine lines shown: [{ multipv, score, meta, moves: [uci] }]. */
const shownLines = () =>
  page.$$eval('#lines .line', rows =>
    rows.map(r => ({
      multipv: Number(r.dataset.multipv),
      score: r.querySelector('.line-score').textContent,
      meta: r.querySelector('.line-meta').textContent,
      moves: [...r.querySelectorAll('.line-move')].map(b => b.dataset.uci),
      sans: [...r.querySelectorAll('.line-move')].map(b => b.textContent),
    })),
  );

async function waitForLines(n, minDepth = 1, timeout = 30_000) {
  const t0 = Date.now();
  for (;;) {
    const lines = await shownLines();
    // one iteration's lines: while an iteration is being reported, its first lines stand
    // beside the last iteration's others, and two of them may begin with the same move
    const depths = lines.map(l => Number(/d(\d+)/.exec(l.meta)?.[1] ?? 0));
    const depth = depths.length ? depths[0] : 0;
    if (lines.length === n && depth >= minDepth && depths.every(d => d === depth)) return lines;
    if (Date.now() - t0 > timeout) throw new Error(`timed out waiting for ${n} lines of depth ${minDepth}: ${JSON.stringify(lines)}`);
    await page.waitForTimeout(100);
  }
}

async function toAnalysis() {
  if (!(await hook(() => window.cannonadePage.controller.inAnalysis))) await page.click('#mode');
  await page.waitForSelector('#analysis', { state: 'visible' });
}

test('the analysis board: lines for a pasted FEN, MultiPV, win chances, the eval bar, a line played, stop', async () => {
  await newGame('cannonshogi');
  await toAnalysis();
  // a pasted position with a drop to make: every line's moves are the game's notation
  const fen = 'ln1gkgsnl/1rci1uab1/2p1p1p1p/9/9/9/2P1P1P1P/1BAU1ICR1/LNSGKGSNL[PSp] w - - 0 1';
  await setFen(fen);
  await waitFor(s => s.fen.split(' ')[0] === fen.split(' ')[0], 'the pasted position');
  assert.equal(await hook(() => window.cannonadePage.controller.inAnalysis), true, 'a FEN set on the analysis board stays there');
  await page.selectOption('#multipv', '4');
  await page.click('#analyse');
  const lines = await waitForLines(4, 4);
  const sent = (await state()).engineSent;
  assert.ok(sent.includes('setoption name MultiPV value 4'), sent.slice(-6).join(' | '));
  assert.ok(sent.includes('setoption name UCI_ShowWDL value true'));
  assert.equal(sent[sent.length - 1], 'go infinite');
  // every line: a score, a depth, win chances, legal moves named as the rules name them
  const firstMoves = new Set();
  for (const l of lines) {
    assert.match(l.score, /^([+−]?\d+\.\d\d|#-?\d+)$/, l.score);
    assert.match(l.meta, /^d\d+ · W \d+% D \d+% L \d+%$/, l.meta);
    assert.ok(l.moves.length >= 1);
    firstMoves.add(l.moves[0]);
    const names = await page.evaluate(
      ([fen, moves]) => {
        const g = window.cannonadePage.rules.newGame('cannonshogi', fen);
        const out = moves.map(m => g.play(m).san);
        g.free?.();
        return out;
      },
      [fen, l.moves],
    );
    assert.deepEqual(l.sans, names);
  }
  assert.equal(firstMoves.size, 4, 'four different first moves');
  // the lines go deeper while the search runs
  const deeper = await waitForLines(4, Number(/d(\d+)/.exec(lines[0].meta)[1]) + 1);
  assert.ok(deeper.length === 4);
  const share = Number(await page.getAttribute('#eval-bar', 'data-share'));
  assert.ok(share > 0 && share < 1, `the bar shows White's share: ${share}`);
  assert.ok(await page.isVisible('#eval-bar'));
  await screenshot('analysis');
  // fewer lines
  await page.selectOption('#multipv', '2');
  await waitForLines(2, 1);
  // stop: the engine is told, the button says so, no more lines come
  await page.click('#analyse');
  await page.waitForSelector('#analyse:not(.running)');
  assert.equal((await state()).engineSent.pop(), 'stop');
  // a line's move clicked: the line is played to it on the board, and analysed from there
  const stopped = await shownLines();
  const line = stopped[0];
  const upTo = Math.min(2, line.moves.length);
  await page.click(`#lines .line[data-multipv="1"] .line-move >> nth=${upTo - 1}`);
  const played = await waitFor(s => s.moves.length === upTo, 'the line played');
  assert.deepEqual(played.moves, line.moves.slice(0, upTo));
  assert.equal(played.thinking, false, 'the engine plays no move on the analysis board');
  // the person moves either side on the analysis board
  const legal = await legalMoves();
  const mv = legal.find(m => m.from && legal.filter(x => x.from === m.from && x.to === m.to).length === 1);
  await page.waitForTimeout(300); // the line's moves are still being drawn
  await drag(mv.from, mv.to);
  await waitFor(s => s.moves.length === upTo + 1, `a move on the analysis board (${mv.uci})`);
  // a move of the list looked at: the analysis follows it
  await page.click('#analyse');
  await page.click('#moves .move[data-ply="0"]');
  const firstFen = await hook(() => window.cannonadePage.controller.shownFen());
  await waitFor(
    s => s.engineSent[s.engineSent.length - 2] === `position fen ${firstFen}` && s.engineSent[s.engineSent.length - 1] === 'go infinite',
    'the analysis of the first move',
  );
  await waitForLines(2, 1);
  await page.click('#analyse');
});

test('the analysis board: a bad FEN gets a message, the board and the lines go on', async () => {
  await toAnalysis();
  const before = await state();
  await setFen('lnsgkgsnl/1rci1uab1/p1p1p1p1p/9/9 w - - 0 1');
  await page.waitForSelector('#io-message.error');
  assert.match(await page.textContent('#io-message'), /FEN refused/);
  assert.equal((await state()).fen, before.fen, 'the position stands');
  await page.click('#analyse');
  await waitForLines(2, 2);
  await page.click('#analyse');
  await page.waitForSelector('#analyse:not(.running)');
  // back to playing: the engine plays again
  await page.click('#mode');
  await page.waitForSelector('#analysis', { state: 'hidden' });
  assert.equal(await hook(() => window.cannonadePage.controller.inAnalysis), false);
});

// The Blackburne Shilling trap: White takes the bait and is mated on move 7
const TRAP = ['e2e4', 'e7e5', 'g1f3', 'b8c6', 'f1c4', 'c6d4', 'f3e5', 'd8g5', 'e5f7', 'g5g2', 'h1f1', 'g2e4', 'c4e2', 'd4f3'];

test('the review: marks with better lines, totals, the graph; a graph point shows its position; the annotated PGN', async () => {
  await newGame('chess');
  await toAnalysis();
  await page.evaluate(moves => window.cannonadePage.controller.playLine(moves), TRAP);
  const s = await waitFor(s => s.moves.length === TRAP.length, 'the game on the board');
  assert.ok(s.over, 'the game ended (mate)');
  // a review can be stopped: nothing is judged, the engine is told to stop
  await page.selectOption('#review-nodes', '1000000');
  await page.click('#review-run');
  await page.waitForSelector('#review-run.running');
  await page.click('#review-run');
  await page.waitForSelector('#review-run:not(.running)');
  assert.equal(await page.textContent('#review-status'), 'Review stopped.');
  assert.equal(await hook(() => window.cannonadePage.reviewed()), null);
  assert.equal((await state()).engineSent.pop(), 'stop');
  await page.selectOption('#review-nodes', '5000');
  await page.click('#review-run');
  await page.waitForSelector('#review-body', { state: 'visible', timeout: 60_000 });
  // the engine searched every position still open (the mate is not searched)
  const gos = (await state()).engineSent.filter(l => l === 'go nodes 5000');
  assert.ok(gos.length >= TRAP.length, `${gos.length} searches`);
  const r = await hook(() => window.cannonadePage.reviewed());
  assert.equal(r.moves.length, TRAP.length);
  // what the move list shows is what the rules said
  const cells = await page.$$eval('#moves .move[data-ply]', cs =>
    cs.map(c => ({ ply: Number(c.dataset.ply), mark: c.dataset.mark ?? null, eval: c.querySelector('.eval')?.textContent })),
  );
  assert.equal(cells.length, TRAP.length);
  for (const c of cells) {
    assert.equal(c.mark, r.moves[c.ply].mark);
    assert.equal(c.eval, r.moves[c.ply].eval ?? '');
  }
  // White goes from the start to being mated: some of its moves are marked, each with the
  // line the engine preferred
  const marked = r.moves.map((m, i) => [m, i]).filter(([m]) => m.mark);
  assert.ok(marked.some(([m]) => m.mover === 'white'), JSON.stringify(r.moves.map(m => m.mark)));
  for (const [m] of marked) assert.ok(m.betterLine.length > 0, `${m.san}${m.mark} has a better line`);
  const [worst, worstPly] = marked.reduce((a, b) => (b[0].loss > a[0].loss ? b : a));
  const totals = await page.textContent('#review-totals');
  assert.match(totals, /Inaccuracies/);
  const w = r.totals.white;
  assert.equal(w.inaccuracies + w.mistakes + w.blunders, marked.filter(([m]) => m.mover === 'white').length);
  // the graph: a curve through every position, a dot for each mark
  const points = await page.$eval('#review-graph polyline', p => p.getAttribute('points').trim().split(/\s+/).length);
  assert.equal(points, TRAP.length + 1);
  const dots = await page.$$eval('#review-graph .dot', ds => ds.map(d => Number(d.dataset.ply)));
  assert.deepEqual(dots, r.moves.flatMap((m, i) => (m.mark ? [i] : [])));
  // a click on the graph's worst move shows its position, its comment names the better line
  await page.click(`#review-graph .dot[data-ply="${worstPly}"]`, { force: true });
  await waitFor(s => s.moves.length === TRAP.length, 'the game');
  assert.equal(await hook(() => window.cannonadePage.controller.shownPly), worstPly);
  const comment = await page.textContent('#review-comment');
  assert.ok(comment.includes('Better:') && comment.includes(worst.betterLine[0]), comment);
  // a move of the list clicked: its position
  await page.click('#moves .move[data-ply="5"]');
  assert.equal(await hook(() => window.cannonadePage.controller.shownPly), 5);
  await screenshot('review');
  // the annotated PGN: the rules' own
  assert.equal(await page.inputValue('#review-pgn'), r.pgn);
  assert.ok(r.pgn.includes('??'));
  await page.click('#mode');
});

test('PGN in: a pychess-variants export, XBoard games and a cannonade match game', async () => {
  const data = join(web, '..', 'crates', 'core', 'tests', 'data', 'pgn');
  // XBoard's chess game has no Variant tag: chess, read while another game is on the board
  for (const file of ['pychess/cannonshogi.pgn', 'xboard/cannonriderscorpion.pgn', 'match/swedishcannon.pgn', 'xboard/chess.pgn']) {
    const text = readFileSync(join(data, file), 'utf8');
    const expected = await page.evaluate(t => window.cannonadePage.rules.readPgn(t)[0], text);
    await page.fill('#pgn', text);
    await page.click('#pgn-load');
    await page.waitForSelector('#io-message:not(.error)');
    const s = await waitFor(
      s => s.variant === expected.variant && s.moves.length >= expected.moves.length && !s.loading,
      `the game of ${file}`,
    );
    assert.deepEqual(s.moves.slice(0, expected.moves.length), expected.moves, file);
    assert.ok(expected.moves.length > 10, `${file}: ${expected.moves.length} moves`);
    const listed = await page.$$eval('#moves .move[data-ply]', cs => cs.length);
    assert.ok(listed >= expected.moves.length, `${file}: the move list shows the game`);
    // a finished game is opened on the analysis board, an unfinished one is played on
    const finished = !!expected.result && expected.result !== '*';
    assert.equal(await hook(() => window.cannonadePage.controller.inAnalysis), finished, `${file}: ${expected.result}`);
  }
  if (await hook(() => window.cannonadePage.controller.inAnalysis)) await page.click('#mode');
});

test('no errors on the page', () => {
  assert.deepEqual(pageErrors, []);
});
