// pieces.css: which picture each piece of each game gets. chessgroundx gives every piece the
// classes `white|black ally|enemy [promoted] <letter>-piece` (`pr-piece` for a promoted
// rook); the page sets the picture as the custom property --img, which app.css draws (and
// turns for the enemy's shogi pieces). A piece no set has gets a plain disc with its letter,
// so a new piece is never invisible.

import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

const letters = 'abcdefghijklmnopqrstuvwxyz'.split('');

function disc(letter, white, promoted) {
  const fill = white ? '#f6f1e6' : '#2d2a26';
  const ink = promoted ? '#c0241b' : white ? '#222' : '#f2ede2';
  const text = (promoted ? '+' : '') + letter.toUpperCase();
  const size = text.length > 1 ? 20 : 26;
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 50 50">` +
    `<circle cx="25" cy="25" r="21" fill="${fill}" stroke="${white ? '#333' : '#ddd'}" stroke-width="2"/>` +
    `<text x="25" y="26" font-family="sans-serif" font-weight="700" font-size="${size}" fill="${ink}" ` +
    `text-anchor="middle" dominant-baseline="central">${text}</text></svg>`;
  return `url("data:image/svg+xml,${encodeURIComponent(svg)}")`;
}

function fallback() {
  const rules = [];
  for (const l of letters)
    for (const white of [true, false])
      for (const promoted of [false, true]) {
        const role = `${promoted ? 'p' : ''}${l}-piece`;
        rules.push(`piece.${white ? 'white' : 'black'}.${role}{--img:${disc(l, white, promoted)}}`);
      }
  return rules.join('\n');
}

/** The piece sets of web/pieces/, for the games' board classes (see theme.ts). */
function sets(dir) {
  if (!existsSync(dir)) return '';
  const rules = [];
  // Filled in from the pieces' manifest (web/pieces/) once it is there.
  void readdirSync;
  void join;
  return rules.join('\n');
}

export function pieceCss(dir) {
  return `/* made by web/pieces.mjs */\n${fallback()}\n${sets(dir)}\n`;
}
