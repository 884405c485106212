// pieces.css: which picture each piece of each game gets. chessgroundx gives every piece the
// classes `white|black ally|enemy [promoted] <letter>-piece` (`pr-piece` for a promoted
// rook); the page sets the picture as the custom property --img, which app.css draws (and
// turns for the enemy's shogi pieces). A piece no set has gets a plain disc with its letter,
// so a new piece is never invisible.

import { existsSync, readFileSync } from 'node:fs';
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

/** The piece sets of web/pieces/ (pieces.json: game -> FEN letter -> role and pictures), for
 * the board classes `v-<game>` (theme.ts). Shogi pictures are chosen by direction: `-up` for
 * the side at the bottom (chessgroundx's `ally`), `-down` for the one at the top; its kings
 * also by colour. Chesstonia's cannons have turned pictures for a board seen from black. */
function sets(dir) {
  const manifest = join(dir, 'pieces.json');
  if (!existsSync(manifest)) return '';
  const games = JSON.parse(readFileSync(manifest, 'utf8'));
  const url = file => `url("pieces/${file}")`;
  const rules = [];
  for (const [game, letters] of Object.entries(games)) {
    const v = `.v-${game}`;
    for (const entry of Object.values(letters)) {
      const role = entry.role;
      if (entry.white && entry.black) {
        rules.push(`${v} piece.white.${role}{--img:${url(entry.white)}}`);
        rules.push(`${v} piece.black.${role}{--img:${url(entry.black)}}`);
        if (entry.whiteTurned && entry.blackTurned) {
          rules.push(`${v}.orientation-black piece.white.${role}{--img:${url(entry.whiteTurned)}}`);
          rules.push(`${v}.orientation-black piece.black.${role}{--img:${url(entry.blackTurned)}}`);
        }
      } else if (entry.up && entry.down) {
        rules.push(`${v} piece.${role}.ally{--img:${url(entry.up)}}`);
        rules.push(`${v} piece.${role}.enemy{--img:${url(entry.down)}}`);
      } else if (entry.sente && entry.gote) {
        rules.push(`${v} piece.white.${role}.ally{--img:${url(entry.sente.up)}}`);
        rules.push(`${v} piece.white.${role}.enemy{--img:${url(entry.sente.down)}}`);
        rules.push(`${v} piece.black.${role}.ally{--img:${url(entry.gote.up)}}`);
        rules.push(`${v} piece.black.${role}.enemy{--img:${url(entry.gote.down)}}`);
      } else {
        throw new Error(`pieces.json: ${game} ${role}: no pictures this script knows how to use`);
      }
    }
  }
  return rules.join('\n');
}

export function pieceCss(dir) {
  return `/* made by web/pieces.mjs */\n${fallback()}\n${sets(dir)}\n`;
}
