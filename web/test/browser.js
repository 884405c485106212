'use strict';
// The browser build in a real browser: Debian's Chromium, driven by playwright-core (never a
// browser a tool downloads). Run after scripts/build-wasm.sh and `cargo build --release`:
//
//   node web/test/browser.js [--bench-depth N] [--rounds N]
//
// On a page that is cross-origin isolated (shared memory) and on one that is not, it checks
// the rules API, the engine's answers, and that `stop` ends an infinite search with a move
// (reporting how long it took); then it measures the speed of `bench` in the browser against
// the native program's, one after the other, in one run (see docs/web.md). Exits non-zero on
// a failed check; speeds are reported, not asserted.

const assert = require('node:assert/strict');
const { chromium } = require('playwright-core');
const { serve } = require('./server.js');
const { nativeToolAsync, requireNative, DIST } = require('./node-env.js');
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

// The checks on one page; `isolated` says which kind it is.
async function checkPage(page, isolated) {
  const where = isolated ? 'isolated page' : 'page without isolation';
  assert.equal(await page.evaluate(() => self.crossOriginIsolated), isolated, where);
  const rules = await page.evaluate(() => T.rules());
  assert.equal(rules.variants[0], 'chess');
  assert.equal(rules.variants.length, 8);
  assert.equal(rules.moves, 20);
  assert.match(rules.refused, /^'e2e4' is not a legal move in /);

  const shared = await page.evaluate(() => T.engine());
  assert.equal(shared, isolated, `${where}: stop through shared memory only where isolated`);
  await page.evaluate(() => T.send('uci'));
  await page.evaluate(() => T.until('^uciok$'));
  await page.evaluate(() => T.send('setoption name UCI_Variant value cannonshogi', 'isready'));
  const ready = await page.evaluate(() => T.until('^readyok$'));
  assert.ok(ready.lines.some((l) => l.startsWith('info string variant cannonshogi')), ready.lines.join('\n'));

  // An infinite search: `isready` is answered during it, and `stop` ends it with a move.
  const latencies = [];
  for (let round = 0; round < 3; round++) {
    await page.evaluate(() => T.send('position startpos', 'go infinite'));
    await page.evaluate(() => T.until('^info depth 6 '));
    const asked = await page.evaluate(() => T.send('isready'));
    const answered = await page.evaluate(() => T.until('^readyok$'));
    const stopped = await page.evaluate(() => T.send('stop'));
    const best = await page.evaluate(() => T.until('^bestmove '));
    assert.match(best.lines[best.lines.length - 1], /^bestmove \S+/);
    latencies.push({ isready: answered.at - asked, stop: best.at - stopped });
  }
  // The engine goes on after a stop: it answers and searches again.
  await page.evaluate(() => T.send('position startpos moves c3c4', 'go depth 3'));
  await page.evaluate(() => T.until('^bestmove '));
  return latencies;
}

async function bench(page, depth) {
  await page.evaluate(() => T.engine());
  await page.evaluate((d) => T.send(`bench ${d}`), depth);
  const r = await page.evaluate(() => T.until('^Nodes/second: ', 3600000));
  const nodes = Number(/Nodes searched: (\d+)/.exec(r.lines.join('\n'))[1]);
  const nps = Number(/Nodes\/second: (\d+)/.exec(r.lines.join('\n'))[1]);
  return { nodes, nps };
}

async function nativeBench(depth) {
  const r = await nativeToolAsync(['bench', '--depth', String(depth)]);
  return {
    nodes: Number(/Nodes searched: (\d+)/.exec(r.stdout)[1]),
    nps: Number(/Nodes\/second: (\d+)/.exec(r.stdout)[1]),
  };
}

async function main() {
  requireNative();
  assert.ok(fs.existsSync(path.join(DIST, 'cannonade.wasm')), 'run scripts/build-wasm.sh first');
  const depth = option('--bench-depth', 9);
  const rounds = option('--rounds', 2);
  const isolated = await serve({ isolated: true });
  const plain = await serve({ isolated: false });
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: FLAGS, headless: true });
  try {
    for (const [server, kind] of [
      [isolated, true],
      [plain, false],
    ]) {
      const latencies = await withPage(browser, server.url, (page) => checkPage(page, kind));
      console.log(`${kind ? 'isolated (shared memory)' : 'not isolated (worker ended on stop)'}: ` + latencies.map((l) => `isready ${l.isready.toFixed(1)} ms, stop ${l.stop.toFixed(1)} ms`).join('; '));
    }
    // Speed: the same bench, native (one thread) and in the browser, one after the other.
    const runs = [];
    for (let i = 0; i < rounds; i++) {
      const native = await nativeBench(depth);
      const wasm = await withPage(browser, isolated.url, (page) => bench(page, depth));
      assert.equal(wasm.nodes, native.nodes, 'the browser build searches the same tree as the native one');
      runs.push({ native: native.nps, wasm: wasm.nps });
      console.log(`bench ${depth}: ${native.nodes} nodes; native ${native.nps} nodes/s, Chromium ${wasm.nps} nodes/s, ratio ${(wasm.nps / native.nps).toFixed(3)}`);
    }
    const sum = (k) => runs.reduce((s, r) => s + r[k], 0);
    console.log(`bench ${depth}, ${rounds} rounds: Chromium/native = ${(sum('wasm') / sum('native')).toFixed(3)}`);
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
