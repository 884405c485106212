'use strict';
// The browser build in a real browser: Debian's Chromium, driven by playwright-core (never a
// browser a tool downloads). Run after scripts/build-wasm.sh and `cargo build --release`:
//
//   node web/test/browser.js                  the checks (scripts/web.sh test runs them)
//   node web/test/browser.js --speed [--rounds N] [--depth N]
//                                             nodes per second against the native program
//                                             (scripts/wasm_speed.sh)
//
// The checks: on a page that is cross-origin isolated (shared memory) the same perft counts as
// the native program in all eight games and the same bench signature; on it and on a page
// that is not isolated, the rules API, and that `isready`, `stop` and a new command are
// answered while a search or a job runs (a `go infinite` then `stop` gets its `bestmove`; how
// long it took is reported, never asserted). Exits non-zero on a failed check.
//
// The speed: the same `bench` native (one thread) and in the browser, one after the other,
// `--rounds` times; the ratio of the nodes per second, summed over the rounds.

const assert = require('node:assert/strict');
const { chromium } = require('playwright-core');
const { serve } = require('./server.js');
const { nativeTool, nativeToolAsync, requireNative, DIST } = require('./node-env.js');
const fs = require('fs');
const path = require('path');

const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

function option(name, fallback) {
  const i = process.argv.indexOf(name);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
}

async function withPage(browser, url, body) {
  const page = await browser.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  await page.goto(url);
  try {
    return await body(page);
  } finally {
    await page.close();
    assert.deepEqual(errors, [], `errors on the page ${url}`);
  }
}

const send = (page, ...lines) => page.evaluate((ls) => T.send(...ls), lines);
const until = (page, pattern, limitMs) => page.evaluate(([p, l]) => T.until(p, l), [pattern, limitMs]);

// Perft in every game, from the start and from a position a few moves into a game: the
// native program's lines.
async function checkPerft(page) {
  const games = await page.evaluate(() => T.games());
  for (const { variant, fen } of games) {
    for (const [at, depth] of [
      [null, 4],
      [fen, 3],
    ]) {
      const args = ['perft', '--variant', variant, '--depth', String(depth)];
      if (at !== null) args.push('--fen', at);
      const native = nativeTool(args).stdout.trimEnd().split('\n');
      await send(page, `setoption name UCI_Variant value ${variant}`, at === null ? 'position startpos' : `position fen ${at}`, `go perft ${depth}`);
      const ours = (await until(page, '^Nodes searched')).lines.filter((l) => !l.startsWith('info string variant'));
      assert.deepEqual(ours, native, `Chromium perft ${variant} ${at || 'startpos'} depth ${depth}`);
    }
  }
  return games.length;
}

async function checkBench(page) {
  const native = await nativeToolAsync(['bench']);
  await send(page, 'bench');
  const ours = (await until(page, '^Nodes/second: ', 600000)).lines;
  const nodes = (text) => Number(/Nodes searched: (\d+)/.exec(text)[1]);
  assert.equal(nodes(ours.join('\n')), nodes(native.stdout), 'Chromium bench signature');
  return nodes(native.stdout);
}

// `isready`, `stop` and new commands while a search or a job runs.
async function checkAnswers(page) {
  const latencies = [];
  await send(page, 'setoption name UCI_Variant value cannonshogi', 'isready');
  await until(page, '^readyok$');
  for (let round = 0; round < 2; round++) {
    await send(page, 'position startpos', 'go infinite');
    await until(page, '^info depth 6 ');
    const asked = await send(page, 'isready');
    const answered = await until(page, '^readyok$|^bestmove');
    assert.equal(answered.lines[answered.lines.length - 1], 'readyok', 'isready during a search');
    const stopped = await send(page, 'stop');
    const best = await until(page, '^bestmove ');
    assert.match(best.lines[best.lines.length - 1], /^bestmove \S+/);
    latencies.push({ isready: answered.at - asked, stop: best.at - stopped });
  }
  // A new position stops the search (its move is given), then takes effect.
  await send(page, 'go infinite');
  await until(page, '^info depth 4 ');
  await send(page, 'position startpos moves c3c4', 'd');
  const after = (await until(page, '^Fen: ')).lines;
  assert.equal(after.filter((l) => l.startsWith('bestmove ')).length, 1, after.join('\n'));
  assert.match(after[after.length - 1], /^Fen: \S+ b /);
  // A job is stopped as a search is, and the engine goes on.
  await send(page, 'go perft 8');
  await send(page, 'isready');
  await until(page, '^readyok$');
  await send(page, 'stop', 'isready');
  const job = (await until(page, '^readyok$')).lines;
  assert.ok(job.includes('info string perft stopped'), job.join('\n'));
  assert.ok(!job.some((l) => l.startsWith('Nodes searched')), job.join('\n'));
  await send(page, 'position startpos', 'go depth 3');
  await until(page, '^bestmove \\S+');
  return latencies;
}

async function checkRules(page) {
  const rules = await page.evaluate(() => T.rules());
  assert.equal(rules.variants[0], 'chess');
  assert.equal(rules.variants.length, 8);
  assert.equal(rules.moves, 20);
  assert.match(rules.refused, /^'e2e4' is not a legal move in /);
  assert.equal(rules.readBack, true);
}

async function bench(page, depth) {
  await page.evaluate(() => T.engine());
  await send(page, `bench ${depth}`);
  const r = await until(page, '^Nodes/second: ', 3600000);
  const text = r.lines.join('\n');
  return { nodes: Number(/Nodes searched: (\d+)/.exec(text)[1]), nps: Number(/Nodes\/second: (\d+)/.exec(text)[1]) };
}

async function nativeBench(depth) {
  const r = await nativeToolAsync(['bench', '--depth', String(depth)]);
  return { nodes: Number(/Nodes searched: (\d+)/.exec(r.stdout)[1]), nps: Number(/Nodes\/second: (\d+)/.exec(r.stdout)[1]) };
}

async function checks(browser, isolated, plain) {
  for (const [server, kind] of [
    [isolated, true],
    [plain, false],
  ]) {
    const where = kind ? 'isolated page (stop through shared memory)' : 'page without isolation (worker ended on stop)';
    await withPage(browser, server.url, async (page) => {
      assert.equal(await page.evaluate(() => self.crossOriginIsolated), kind, where);
      await checkRules(page);
      assert.equal(await page.evaluate(() => T.engine()), kind, `${where}: shared memory only where isolated`);
      if (kind) {
        const games = await checkPerft(page);
        const signature = await checkBench(page);
        console.log(`Chromium: perft as native in ${games} games; bench signature ${signature}`);
      }
      const latencies = await checkAnswers(page);
      console.log(`${where}: ` + latencies.map((l) => `isready ${l.isready.toFixed(1)} ms, stop ${l.stop.toFixed(1)} ms`).join('; '));
    });
  }
}

async function speed(browser, isolated) {
  const depth = option('--depth', 11);
  const rounds = option('--rounds', 3);
  const runs = [];
  for (let i = 0; i < rounds; i++) {
    const native = await nativeBench(depth);
    const wasm = await withPage(browser, isolated.url, (page) => bench(page, depth));
    assert.equal(wasm.nodes, native.nodes, 'the browser build searches the same tree as the native one');
    runs.push({ native: native.nps, wasm: wasm.nps });
    console.log(`round ${i + 1}: bench ${depth}, ${native.nodes} nodes: native ${native.nps} nodes/s, Chromium ${wasm.nps} nodes/s, ratio ${(wasm.nps / native.nps).toFixed(3)}`);
  }
  const sum = (k) => runs.reduce((s, r) => s + r[k], 0);
  console.log(`bench ${depth}, ${rounds} rounds: native ${Math.round(sum('native') / rounds)} nodes/s, Chromium ${Math.round(sum('wasm') / rounds)} nodes/s, Chromium/native = ${(sum('wasm') / sum('native')).toFixed(3)}`);
}

async function main() {
  requireNative();
  assert.ok(fs.existsSync(path.join(DIST, 'cannonade.wasm')), 'run scripts/build-wasm.sh first');
  const isolated = await serve({ isolated: true });
  const plain = await serve({ isolated: false });
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: FLAGS, headless: true });
  try {
    if (process.argv.includes('--speed')) {
      await speed(browser, isolated);
    } else {
      await checks(browser, isolated, plain);
    }
  } finally {
    await browser.close();
    isolated.server.close();
    plain.server.close();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
