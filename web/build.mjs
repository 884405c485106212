// Bundles the page into web/dist/ next to the engine's files (cannonade.js and its wasm,
// written there by scripts/build-wasm.sh): app.js (TypeScript and chessgroundx, bundled by
// esbuild), app.css, pieces.css (each game's piece set, made from web/pieces/), index.html
// and the piece images. `node build.mjs` from web/ (scripts/web.sh build runs it).

import { build } from 'esbuild';
import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { pieceCss } from './pieces.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const dist = join(here, 'dist');
mkdirSync(dist, { recursive: true });

await build({
  entryPoints: [join(here, 'src/main.ts')],
  outfile: join(dist, 'app.js'),
  bundle: true,
  format: 'iife',
  target: ['es2020'],
  minify: true,
  sourcemap: true,
  legalComments: 'linked',
  logLevel: 'warning',
});

await build({
  entryPoints: [join(here, 'src/app.css')],
  outfile: join(dist, 'app.css'),
  bundle: true,
  minify: true,
  logLevel: 'warning',
});

const piecesDir = join(here, 'pieces');
writeFileSync(join(dist, 'pieces.css'), pieceCss(piecesDir));
if (existsSync(piecesDir)) {
  cpSync(piecesDir, join(dist, 'pieces'), {
    recursive: true,
    filter: src => !/[/\\](tools|node_modules)([/\\]|$)/.test(src),
  });
}
writeFileSync(join(dist, 'index.html'), readFileSync(join(here, 'index.html')));
for (const f of ['LICENSE']) if (existsSync(join(here, f))) cpSync(join(here, f), join(dist, f));
if (!existsSync(join(dist, 'cannonade.js'))) {
  console.warn('web/dist/cannonade.js is missing: build the engine first (scripts/build-wasm.sh, or scripts/web.sh build)');
}
console.log(`page built into ${dist}`);
