// Writes the twelve orthodox chess pieces of Colin M.L. Burnett's set ("cburnett") into
// ../chess/, taken from the stylesheet chessgroundx ships, which has them inline as base64
// SVG (assets/chessground.cburnett.css). The drawings are left as they are; the only change
// is a viewBox, so that they scale. They stay under their own licence (GPL-2.0-or-later; see
// ../README.md), not the project's.
//
//     node web/pieces/tools/import-cburnett.mjs path/to/chessground.cburnett.css

import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const css = readFileSync(process.argv[2] ?? 'chessground.cburnett.css', 'utf8');
const out = join(dirname(fileURLToPath(import.meta.url)), '..', 'chess');
const rule = /piece\.(\w+)\.(white|black)\s*\{\s*background-image:\s*url\('data:image\/svg\+xml;base64,([^']+)'\)/g;
let count = 0;
for (const [, role, colour, data] of css.matchAll(rule)) {
  const svg = Buffer.from(data, 'base64').toString('utf8');
  const scaled = svg.replace(
    '<svg xmlns="http://www.w3.org/2000/svg" width="45" height="45">',
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 45 45" width="45" height="45">',
  );
  if (scaled === svg) throw new Error(`${colour} ${role}: unexpected <svg> header`);
  writeFileSync(join(out, `${colour}-${role}.svg`), scaled + '\n');
  count++;
}
if (count !== 12) throw new Error(`expected 12 pieces, found ${count}`);
console.log(`wrote ${count} pieces to ${out}`);
