// Writes one HTML contact sheet per set into a folder (default: web/pieces/tools/sheets/,
// which git ignores): every piece at 48 px on a light and a dark square and at 96 px, and
// the games' start positions at 40 px, so that a set can be judged as players will see it.
// The pieces of each game are read from ../pieces.json. render-sheets.sh turns the sheets
// into docs/screenshots/pieces-<set>.png with a headless Chromium.
//
//     node web/pieces/tools/contact-sheets.mjs [folder]

import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const TOOLS = dirname(fileURLToPath(import.meta.url));
const PIECES = join(TOOLS, '..');
const OUT = process.argv[2] ?? join(TOOLS, 'sheets');
mkdirSync(OUT, { recursive: true });
const games = JSON.parse(readFileSync(join(PIECES, 'pieces.json'), 'utf8'));
const url = (file) => relative(OUT, join(PIECES, file)).split('\\').join('/');

const LIGHT = '#f0d9b5';
const DARK = '#b58863';
const HOLE = '#3a3a3a';
const SHOGI_BOARD = '#e8c483';

const style = `<style>
body { margin: 12px; font: 12px sans-serif; background: #fff; color: #222; }
h1 { font-size: 16px; margin: 0 0 8px; }
h2 { font-size: 13px; margin: 12px 0 4px; }
.pieces { display: flex; flex-wrap: wrap; gap: 6px 2px; }
.piece { text-align: center; width: 100px; }
.piece div { display: inline-block; vertical-align: bottom; background-size: cover; }
.piece span { display: block; font-size: 10px; line-height: 1.15; height: 36px; }
.boards { display: flex; gap: 16px; align-items: flex-start; flex-wrap: wrap; }
.board { display: grid; border: 2px solid #555; }
.board div { width: 40px; height: 40px; background-size: cover; }
</style>`;

function cell(file, size, bg) {
  return `<div style="width:${size}px;height:${size}px;background-color:${bg};background-image:url('${url(file)}')"></div>`;
}

function pieceTile(label, file) {
  return (
    `<div class="piece">${cell(file, 48, LIGHT)}${cell(file, 48, DARK)}<br>` +
    `${cell(file, 96, LIGHT)}<span>${label}</span></div>`
  );
}

// The squares of a FEN's placement field, rank by rank: null (empty), '*' (a hole) or the
// piece as the FEN writes it ('c', '+U').
function squares(placement) {
  return placement.split('/').map((row) => {
    const cells = [];
    for (let i = 0; i < row.length; i++) {
      if (/\d/.test(row[i])) {
        let digits = row[i];
        while (/\d/.test(row[i + 1] ?? '')) digits += row[++i];
        for (let k = 0; k < Number(digits); k++) cells.push(null);
      } else if (row[i] === '+') {
        cells.push('+' + row[++i]);
      } else {
        cells.push(row[i]);
      }
    }
    return cells;
  });
}

// A board; `image(piece)` names a piece's file; `uniform` paints every square one colour
// (a shogi board).
function board(placement, image, uniform) {
  const ranks = squares(placement);
  const cells = ranks.flatMap((rank, r) =>
    rank.map((p, f) => {
      const bg = p === '*' ? HOLE : uniform ?? ((r + f) % 2 ? DARK : LIGHT);
      const img = p && p !== '*' ? `;background-image:url('${url(image(p))}')` : '';
      return `<div style="background-color:${bg}${img}"></div>`;
    }),
  );
  return `<div class="board" style="grid-template-columns:repeat(${ranks[0].length},40px)">${cells.join('')}</div>`;
}

// The image of a chess-family or Cannon piece of `game`: white for upper case.
const byColour = (game) => (p) => {
  const white = p === p.toUpperCase();
  return games[game][p.toUpperCase()][white ? 'white' : 'black'];
};

function page(title, sections) {
  return `<!doctype html><html><head><meta charset="utf-8">${style}</head><body><h1>${title}</h1>${sections.join('')}</body></html>\n`;
}

// ---- Cannon Shogi: sente (upper case) at the bottom, pointing up.

const shogi = games.cannonshogi;
const shogiImage = (p) => {
  const letter = p.replace('+', '');
  const sente = letter === letter.toUpperCase();
  const entry = shogi[p.toUpperCase()];
  const faces = entry.sente ? entry[sente ? 'sente' : 'gote'] : entry;
  return faces[sente ? 'up' : 'down'];
};
{
  const faces = Object.entries(shogi).flatMap(([letter, e]) =>
    e.sente
      ? [[`${letter} sente ${e.kanji.sente}`, e.sente], [`${letter} gote ${e.kanji.gote}`, e.gote]]
      : [[`${letter} ${e.kanji}`, e]],
  );
  const start = 'lnsgkgsnl/1rci1uab1/p1p1p1p1p/9/9/9/P1P1P1P1P/1BAU1ICR1/LNSGKGSNL';
  const promoted = '4k4/1+r+c+i1+u+a+b1/+p1+p1+p1+p1+p/9/9/9/+P1+P1+P1+P1+P/1+B+A+U1+I+C+R1/4K4';
  writeFileSync(
    join(OUT, 'pieces-shogi.html'),
    page('Cannon Shogi: web/pieces/shogi/ (wedges point at the opponent; promoted sides in red; the cannons banded in their metal)', [
      `<h2>Pointing up (the player at the bottom)</h2><div class="pieces">${faces.map(([l, f]) => pieceTile(l, f.up)).join('')}</div>`,
      `<h2>Pointing down (the player at the top)</h2><div class="pieces">${faces.map(([l, f]) => pieceTile(l, f.down)).join('')}</div>`,
      '<h2>The start position on a shogi board and on a dark background, and every piece promoted, at 40 px</h2><div class="boards">' +
        board(start, shogiImage, SHOGI_BOARD) +
        board(start, shogiImage, DARK) +
        board(promoted, shogiImage, SHOGI_BOARD) +
        '</div>',
    ]),
  );
}

// ---- Chess family: the orthodox pieces, then each game's own.

{
  const seen = new Map();
  const label = { swedishcannon: 'swedishcannon, swedishcannon1', swedishcannon1: null };
  for (const [game, pieces] of Object.entries(games)) {
    if (game === 'cannonshogi' || game === 'cannon' || label[game] === null) continue;
    for (const [letter, e] of Object.entries(pieces)) {
      const files = [e.white, e.black, e.whiteTurned, e.blackTurned].filter(Boolean);
      for (const file of files) {
        const name = file.replace(/^chess\/|\.svg$/g, '');
        if (!seen.has(file)) seen.set(file, `${letter} ${game === 'chess' ? '' : `(${label[game] ?? game}) `}${name}`);
      }
    }
  }
  const tiles = [...seen].map(([file, l]) => pieceTile(l, file));
  writeFileSync(
    join(OUT, 'pieces-chess.html'),
    page("Chess family: web/pieces/chess/ (the cburnett orthodox pieces and the project's new ones)", [
      `<div class="pieces">${tiles.join('')}</div>`,
      '<h2>Swedish Cannon Chess (a cannon entered on d1), Gustavian Cannonrider Chess, its Scorpion version, Cannons of Chesstonia</h2><div class="boards">' +
        board('rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBCKBNR', byColour('swedishcannon')) +
        board('nrbckqcbrn/*pppppppp*/*8*/*8*/*8*/*8*/*PPPPPPPP*/NRBCKQCBRN', byColour('cannonrider')) +
        board('nrbckqcbrn/*ssssssss*/*8*/*8*/*8*/*8*/*SSSSSSSS*/NRBCKQCBRN', byColour('cannonriderscorpion')) +
        board('1*rnbqkbnr**/**pppppppp**/pc9S/w10F/f10W/s9CP/**PPPPPPPP**/**RNBQKBNR*1', byColour('chesstonia')) +
        '</div>',
    ]),
  );
}

// ---- Whitcher's Cannon

{
  const tiles = [];
  for (const colour of ['white', 'black']) {
    for (const [letter, e] of Object.entries(games.cannon)) {
      tiles.push(pieceTile(`${letter} ${e[colour].replace(/^cannon\/|\.svg$/g, '')}`, e[colour]));
    }
  }
  writeFileSync(
    join(OUT, 'pieces-cannon.html'),
    page("Whitcher's Cannon: web/pieces/cannon/", [
      `<div class="pieces">${tiles.join('')}</div>`,
      '<h2>The start position with both towns placed</h2><div class="boards">' +
        board('2t7/1s1s1s1s1s/1s1s1s1s1s/1s1s1s1s1s/10/10/S1S1S1S1S1/S1S1S1S1S1/S1S1S1S1S1/4T5', byColour('cannon')) +
        '</div>',
    ]),
  );
}

console.log(`wrote contact sheets to ${OUT}`);
