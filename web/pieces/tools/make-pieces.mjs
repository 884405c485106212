// Draws the project's own piece images into web/pieces/: the Cannon Shogi set (one wedge
// template, the kanji from glyphs.json), the new chess-family pieces in the style of the
// cburnett set (45x45, black outline of 1.5, white or black body) and Whitcher's Cannon's
// soldiers and towns; and writes pieces.json, which piece of which game each file is.
// No packages needed:
//
//     node web/pieces/tools/make-pieces.mjs
//
// The drawings are the project's (MIT, see ../README.md); the kanji outlines are glyphs of
// Noto Serif CJK JP Bold (SIL OFL 1.1), written by extract-glyphs.py.

import { existsSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const TOOLS = dirname(fileURLToPath(import.meta.url));
const ROOT = join(TOOLS, '..');
const font = JSON.parse(readFileSync(join(TOOLS, 'glyphs.json'), 'utf8'));

const n = (v) => String(Math.round(v * 100) / 100);
const svg = (size, body) =>
  `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${size} ${size}" width="${size}" height="${size}">` +
  body +
  '</svg>\n';

const written = [];
function write(set, name, text) {
  mkdirSync(join(ROOT, set), { recursive: true });
  writeFileSync(join(ROOT, set, `${name}.svg`), text);
  written.push(`${set}/${name}.svg`);
}

// ---------------------------------------------------------------------------------------
// Cannon Shogi. Every piece is one wedge pointing at the opponent, with the name in two
// kanji, black on the front and red on the promoted side, as on a real set. Pieces differ
// a little in size as real sets do (the king largest, soldiers smallest). The four cannons
// carry a band at their foot in the colour of their metal (gold, silver, copper, iron): the
// kanji alone (金 銀 銅 鉄 before 砲) are hard to tell apart at 48 px for a reader who does
// not know them.

const WOOD = { light: '#f7e1b0', dark: '#e9c27f', edge: '#8c6733' };
const INK = '#1b1410';
const RED = '#c41a1a';
const METAL = {
  gold: { fill: '#e8b31c', edge: '#8a6508' },
  silver: { fill: '#d9dde2', edge: '#6d737b' },
  copper: { fill: '#c0622d', edge: '#6e3212' },
  iron: { fill: '#3c4047', edge: '#15171a' },
};

// The wedge, pointing up, in a 100x100 box: apex, shoulders, foot.
const WEDGE = [
  [50, 3],
  [81, 16.5],
  [89.5, 97],
  [10.5, 97],
  [19, 16.5],
];

// x of the wedge's left side at height y (the right side mirrors it), for the metal band.
function leftSide(y) {
  const [[x0, y0], [x1, y1]] = [WEDGE[4], WEDGE[3]];
  return x0 + ((x1 - x0) * (y - y0)) / (y1 - y0);
}

// One kanji, its ink centred on (cx, cy), em `size` units high, a little narrower than high
// as the letters on shogi pieces are.
function kanji(ch, cx, cy, size, colour) {
  const g = font.glyphs[ch];
  if (!g) throw new Error(`no glyph for ${ch}: run extract-glyphs.py`);
  const s = size / font.unitsPerEm;
  const sx = s * 0.93;
  const [x0, y0, x1, y1] = g.bounds;
  const tx = cx - (sx * (x0 + x1)) / 2;
  const ty = cy + (s * (y0 + y1)) / 2;
  return `<path fill="${colour}" transform="matrix(${n(sx)} 0 0 ${n(-s)} ${n(tx)} ${n(ty)})" d="${g.d}"/>`;
}

function shogiPiece({ text, colour, scale, metal }, down) {
  const defs =
    '<defs><linearGradient id="w" x1="0" y1="0" x2="0.35" y2="1">' +
    `<stop offset="0" stop-color="${WOOD.light}"/><stop offset="1" stop-color="${WOOD.dark}"/>` +
    '</linearGradient></defs>';
  const outline = 'M' + WEDGE.map(([x, y]) => `${x} ${y}`).join('L') + 'Z';
  let body = `<path d="${outline}" fill="url(#w)" stroke="${WOOD.edge}" stroke-width="2.2" stroke-linejoin="round"/>`;
  if (metal) {
    const m = METAL[metal];
    const [top, bottom] = [87, 93];
    const [a, b] = [leftSide(top) + 4, leftSide(bottom) + 4];
    body +=
      `<path d="M${n(a)} ${top}H${n(100 - a)}L${n(100 - b)} ${bottom}H${n(b)}Z" fill="${m.fill}" ` +
      `stroke="${m.edge}" stroke-width="1.2" stroke-linejoin="round"/>`;
  }
  const [first, second] = [...text];
  const [size, y] = metal ? [32, [38.5, 69]] : [34, [40.5, 73]];
  body += kanji(first, 50, y[0], size, colour) + kanji(second, 50, y[1], size, colour);
  // Smaller pieces shrink about the middle of the square; the one pointing down is the
  // same piece turned half round.
  let transform = `translate(50 52) scale(${scale}) translate(-50 -52)`;
  if (down) transform = `rotate(180 50 50) ${transform}`;
  return svg(100, `${defs}<g transform="${transform}">${body}</g>`);
}

// letter: the FEN letter (the king's two faces are by side: 玉将 for sente, the first
// player, 王将 for gote, as in most shogi diagrams).
const SHOGI = [
  { name: 'king-sente', letter: 'K', side: 'sente', text: '玉将', scale: 1 },
  { name: 'king-gote', letter: 'K', side: 'gote', text: '王将', scale: 1 },
  { name: 'rook', letter: 'R', text: '飛車', scale: 0.97, promoted: { name: 'dragon', text: '龍王' } },
  { name: 'bishop', letter: 'B', text: '角行', scale: 0.97, promoted: { name: 'horse', text: '龍馬' } },
  { name: 'gold', letter: 'G', text: '金将', scale: 0.94 },
  { name: 'silver', letter: 'S', text: '銀将', scale: 0.94, promoted: { name: 'promoted-silver', text: '成銀' } },
  { name: 'knight', letter: 'N', text: '桂馬', scale: 0.91, promoted: { name: 'promoted-knight', text: '成桂' } },
  { name: 'lance', letter: 'L', text: '香車', scale: 0.9, promoted: { name: 'promoted-lance', text: '成香' } },
  { name: 'soldier', letter: 'P', text: '歩兵', scale: 0.88, promoted: { name: 'tokin', text: 'と金' } },
  { name: 'gold-cannon', letter: 'U', text: '金砲', scale: 0.96, metal: 'gold', promoted: { name: 'flying-gold-cannon', text: '飛金' } },
  { name: 'silver-cannon', letter: 'A', text: '銀砲', scale: 0.96, metal: 'silver', promoted: { name: 'flying-silver-cannon', text: '飛銀' } },
  { name: 'copper-cannon', letter: 'C', text: '銅砲', scale: 0.96, metal: 'copper', promoted: { name: 'flying-copper-cannon', text: '飛銅' } },
  { name: 'iron-cannon', letter: 'I', text: '鉄砲', scale: 0.96, metal: 'iron', promoted: { name: 'flying-iron-cannon', text: '飛鉄' } },
];

for (const p of SHOGI) {
  const faces = [{ ...p, colour: INK, promoted: false }];
  if (p.promoted) faces.push({ ...p, ...p.promoted, colour: RED, metal: p.metal, letter: '+' + p.letter, promoted: true });
  for (const f of faces) {
    for (const [dir, down] of [['up', false], ['down', true]]) {
      write('shogi', `${f.name}-${dir}`, shogiPiece(f, down));
    }
  }
}

// ---------------------------------------------------------------------------------------
// Chess-family pieces, drawn to sit with the cburnett set: a 45x45 box, outlines of 1.5 in
// black with round joins, the body white (#fff) or black, the inner lines of a black piece
// light (#ececec), feet on the line y = 39.5 as the cburnett pawn's.

const COLOURS = {
  white: { body: '#fff', line: '#000', inner: '#000' },
  black: { body: '#000', line: '#000', inner: '#ececec' },
};
const G = (c, inner) =>
  `<g fill="${c.body}" stroke="${c.line}" stroke-width="1.5" stroke-linecap="round" stroke-linejoin="round">${inner}</g>`;

// A spoked wheel: rim, six spokes, hub. The wheel is what the cannons have in common.
function wheel(c, cx, cy, r) {
  const ri = r - 2.3;
  let spokes = '';
  for (let k = 0; k < 6; k++) {
    const a = (Math.PI / 3) * k + Math.PI / 6;
    spokes += `M${n(cx + 1.6 * Math.cos(a))} ${n(cy + 1.6 * Math.sin(a))}L${n(cx + ri * Math.cos(a))} ${n(cy + ri * Math.sin(a))}`;
  }
  return (
    `<circle cx="${cx}" cy="${cy}" r="${r}"/>` +
    `<circle cx="${cx}" cy="${cy}" r="${ri}" fill="none" stroke="${c.inner}" stroke-width="1"/>` +
    `<path d="${spokes}" fill="none" stroke="${c.inner}" stroke-width="1.2"/>` +
    `<circle cx="${cx}" cy="${cy}" r="1.6" fill="${c.inner}" stroke="none"/>`
  );
}

// A cannon barrel along +x from its trunnions at the origin: rounded breech with its knob
// behind, straight taper, a swelling at the muzzle; two reinforcing rings as inner lines.
function barrel(c, back, front, rBack, rFront) {
  const body =
    `M${-back} ${-rBack}L${front - 3} ${-rFront}V${-rFront - 0.9}H${front}V${rFront + 0.9}H${front - 3}V${rFront}L${-back} ${rBack}` +
    `A${rBack} ${rBack} 0 0 1 ${-back} ${-rBack}Z`;
  const knob = `<circle cx="${-back - rBack - 1.4}" cy="0" r="1.7"/>`;
  const rings = `M${n(-back + 4)} ${n(-rBack + 0.6)}V${n(rBack - 0.6)}M${n(front * 0.45)} ${n(-rFront - 0.3)}V${n(rFront + 0.3)}`;
  return `${knob}<path d="${body}"/><path d="${rings}" fill="none" stroke="${c.inner}" stroke-width="1"/>`;
}

// Swedish Cannon Chess's cannon: a field gun, its barrel raised toward the enemy, on a big
// wheel and a trail resting on the ground behind.
function swedishCannon(c) {
  return G(
    c,
    '<path d="M9 39.5h27v-3H9z"/>' +
      '<path d="M16.5 24L25 27.5 11.5 36.5H6.5z"/>' +
      `<g transform="translate(20.5 23.5) rotate(-32)">${barrel(c, 8.5, 21, 4.2, 3)}</g>` +
      wheel(c, 21.5, 27.5, 9),
  );
}

// The Cannonrider: a horse (the nightrider) on a cannon's wheel. The horse faces right, the
// orthodox knight left, so that the two differ at a glance besides the wheel.
function cannonrider(c) {
  const horse =
    'M12 31C10.5 22 13 14 18 10L18.5 4.5 22.5 8.5C26 8.5 29 10 31 12.5L37.5 20.5' +
    'C39 22.5 38.5 25 36 25.2C34 25.4 31 23.5 28.5 21.5C25.5 20 24.5 23.5 26 25.5L30 31Z';
  const lines = 'M17 12C13.5 16 12.5 22.5 13.5 29M27.5 19.5C26.5 18 27 16 28.5 15';
  const eye = `<circle cx="27" cy="13" r="1.2" fill="${c.inner}" stroke="none"/>`;
  const nostril = `<circle cx="36.5" cy="21.8" r="0.8" fill="${c.inner}" stroke="none"/>`;
  return G(
    c,
    '<path d="M17.5 10.5L15.5 5.5 20 8.5"/>' +
      `<path d="${horse}"/><path d="${lines}" fill="none" stroke="${c.inner}" stroke-width="1"/>${eye}${nostril}` +
      '<path d="M9 39.5h27v-3H9z"/>' +
      wheel(c, 20, 30, 6.5),
  );
}

// The Scorpion: a scorpion seen from the side, facing forward (up the board is forward for
// a pawn; the scorpion faces right, its sting over its back).
function scorpion(c) {
  const tail = [
    [13.5, 29.5, 3.3],
    [10.8, 25.2, 3.1],
    [10.6, 20.2, 2.9],
    [12.8, 15.8, 2.7],
    [16.8, 13.0, 2.5],
  ];
  let t = '';
  for (const [x, y, r] of [...tail].reverse()) t += `<circle cx="${x}" cy="${y}" r="${r}"/>`;
  // On a black piece the segments' outlines vanish into the body: mark the joints light.
  if (c.body !== '#fff') {
    let joints = '';
    for (let k = 0; k + 1 < tail.length; k++) {
      const [[x1, y1, r1], [x2, y2, r2]] = [tail[k], tail[k + 1]];
      const [dx, dy] = [x2 - x1, y2 - y1];
      const d = Math.hypot(dx, dy);
      const t0 = (d + r1 - r2) / 2 / d; // where the two circles' outlines cross
      const [mx, my] = [x1 + dx * t0, y1 + dy * t0];
      const h = Math.min(r1, r2) * 0.55;
      joints += `M${n(mx - (dy / d) * h)} ${n(my + (dx / d) * h)}L${n(mx + (dy / d) * h)} ${n(my - (dx / d) * h)}`;
    }
    t += `<path d="${joints}" fill="none" stroke="${c.inner}" stroke-width="1"/>`;
  }
  const sting = '<path d="M19 11.5C22 10.5 24.5 12 24.5 15C24.5 16.5 23.5 17.5 22.5 18L22.8 15.8C21.8 15.8 20 15 19 13.5Z"/>';
  const legs =
    'M17.5 33L14.5 38.5M21 33.5L19.5 39M24.5 33.5L25 39M28 33L30.5 38.5';
  const body = '<path d="M12 31C12 27.5 18 27 24 27.5C29 28 33 28.5 33 31C33 33.5 29 34.5 24 34.5C18 34.5 12 34 12 31Z"/>';
  const claw =
    '<path d="M31.5 29.5L35.5 25.5"/><path d="M35 26C34 22.5 36 19.5 39.5 19.5C38 21 37.5 22.5 38 24C39 23.5 40 23.5 41 24C40 26.5 37.5 27.5 35 26Z"/>';
  const segs = `M17.5 27.8V34.2M21.5 27.4V34.5M25.5 27.6V34.4`;
  return G(
    c,
    `<path d="${legs}" fill="none"/>${t}${sting}${claw}${body}` +
      `<path d="${segs}" fill="none" stroke="${c.inner}" stroke-width="1"/>` +
      `<circle cx="30" cy="29.8" r="0.9" fill="${c.inner}" stroke="none"/>`,
  );
}

// A small piece on a pawn's skirt, for the projectiles: its head shows its move, a square
// with a plus (wazir: one step orthogonally), a diamond with a cross (ferz: one diagonally).
function stepper(c, head) {
  const skirt = 'M11.5 39.5H33.5C33.5 33 30 28.5 26.5 26.5H18.5C15 28.5 11.5 33 11.5 39.5Z';
  const collar = '<rect x="16" y="23.5" width="13" height="3.5" rx="1.2"/>';
  return G(c, `<path d="${skirt}"/>${collar}${head}`);
}
function wazir(c) {
  return stepper(
    c,
    '<rect x="16" y="9" width="13" height="13" rx="1"/>' +
      `<path d="M22.5 11.5V19.5M18.5 15.5H26.5" fill="none" stroke="${c.inner}" stroke-width="1.5"/>`,
  );
}
function ferz(c) {
  return stepper(
    c,
    '<path d="M22.5 6.5L31 15 22.5 23.5 14 15Z"/>' +
      `<path d="M20 12.5L25 17.5M25 12.5L20 17.5" fill="none" stroke="${c.inner}" stroke-width="1.5"/>`,
  );
}

// Chesstonia's Go stone: a lens-shaped disc, lit from the upper left.
function stone(c) {
  const lens = 'M6 31C8 20.5 37 20.5 39 31C37 38 8 38 6 31Z';
  const shine = c.body === '#fff' ? '#000' : '#ececec';
  return G(
    c,
    `<path d="${lens}"/>` +
      `<path d="M13 27C15.5 25 19 24.2 22.5 24.2" fill="none" stroke="${shine}" stroke-width="1.2" stroke-opacity="${c.body === '#fff' ? 0.35 : 0.9}"/>`,
  );
}

// Chesstonia's cannon: a gun on a cart that runs on a rail, its barrel level, pointing at
// the board (white's track is on the board's right, so its gun points left). `mirror`
// turns it round, for a board seen from the other side.
function trackCannon(c, pointsRight) {
  const rail = '<path d="M5 39.5h35v-2.2H5z"/>';
  const cart = '<path d="M9 32.5V27H36V32.5Z"/>';
  const mount = '<path d="M17 27L19 21.5H26L28 27Z"/>';
  const wheels =
    '<circle cx="14" cy="34" r="3"/><circle cx="31" cy="34" r="3"/>' +
    `<circle cx="14" cy="34" r="0.9" fill="${c.inner}" stroke="none"/><circle cx="31" cy="34" r="0.9" fill="${c.inner}" stroke="none"/>`;
  const gun = `<g transform="translate(25 19.5) rotate(180)">${barrel(c, 6, 19, 4, 3)}</g>`;
  const plank = `<path d="M11.5 29.7H33.5" fill="none" stroke="${c.inner}" stroke-width="1"/>`;
  const drawing = rail + wheels + cart + plank + mount + gun;
  return G(c, pointsRight ? `<g transform="matrix(-1 0 0 1 45 0)">${drawing}</g>` : drawing);
}

const CHESS = [
  { name: 'swedish-cannon', draw: swedishCannon },
  { name: 'cannonrider', draw: cannonrider },
  { name: 'scorpion', draw: scorpion },
  { name: 'wazir', draw: wazir },
  { name: 'ferz', draw: ferz },
  { name: 'stone', draw: stone },
  // White's gun points left and black's right, at the board from their tracks; the turned
  // ones are for a board shown from black's side.
  { name: 'track-cannon', draw: (c, colour) => trackCannon(c, colour === 'black') },
  { name: 'track-cannon-turned', draw: (c, colour) => trackCannon(c, colour !== 'black') },
];

for (const p of CHESS) {
  for (const colour of ['white', 'black']) {
    write('chess', `${colour}-${p.name}`, svg(45, p.draw(COLOURS[colour], colour)));
  }
}

// ---------------------------------------------------------------------------------------
// Whitcher's Cannon: soldiers (round tokens with a star, so that lines of three, the
// cannons, read clearly) and towns (a walled gate with its tower), in the chess pieces' style.

function soldier(c) {
  const star = [];
  for (let k = 0; k < 10; k++) {
    const r = k % 2 ? 2.9 : 7;
    const a = -Math.PI / 2 + (Math.PI / 5) * k;
    star.push(`${n(22.5 + r * Math.cos(a))} ${n(25 + r * Math.sin(a))}`);
  }
  return G(
    c,
    '<circle cx="22.5" cy="25" r="14"/>' +
      `<circle cx="22.5" cy="25" r="10.8" fill="none" stroke="${c.inner}" stroke-width="1"/>` +
      `<path d="M${star.join('L')}Z" fill="${c.inner}" stroke="${c.inner}" stroke-width="0.8"/>`,
  );
}

function town(c) {
  const walls =
    'M7.5 39.5V25.5H10V23.5H12.5V25.5H14.5V23.5H17V39.5Z' +
    'M28 39.5V23.5H30.5V25.5H32.5V23.5H35V25.5H37.5V39.5Z';
  const tower = 'M16.5 39.5V14H28.5V39.5Z';
  const roof = 'M15 14.5L22.5 5 30 14.5Z';
  const gate = 'M19.5 39.5V33.5A3 3 0 0 1 25.5 33.5V39.5Z';
  const window = `<rect x="21" y="18" width="3" height="4.5" rx="1.5" fill="${c.inner}" stroke="none"/>`;
  const courses = 'M16.5 27.5H28.5M7.5 31H16.5M28.5 31H37.5';
  return G(
    c,
    `<path d="${walls}"/><path d="${tower}"/><path d="${roof}"/>` +
      `<path d="${courses}" fill="none" stroke="${c.inner}" stroke-width="1"/>` +
      `<path d="${gate}" fill="${c.inner}" stroke="${c.inner}" stroke-width="1"/>${window}`,
  );
}

for (const [name, draw] of [
  ['soldier', soldier],
  ['town', town],
]) {
  for (const colour of ['white', 'black']) write('cannon', `${colour}-${name}`, svg(45, draw(COLOURS[colour])));
}

// ---------------------------------------------------------------------------------------
// pieces.json: for each game (by its variant name), each FEN letter's images, with the role
// class chessgroundx gives it (`c-piece`, promoted `pc-piece`). Chess-family and Cannon
// pieces by colour (white: upper case); shogi pieces by the way they point (up: the side at
// the bottom of the board, chessgroundx's `ally`), the king also by side.

const role = (letter) => (letter.startsWith('+') ? 'p' + letter[1] : letter).toLowerCase() + '-piece';
const byColour = (set, names) =>
  Object.fromEntries(
    Object.entries(names).map(([letter, name]) => [
      letter,
      { role: role(letter), white: `${set}/white-${name}.svg`, black: `${set}/black-${name}.svg` },
    ]),
  );
const ORTHODOX = { K: 'king', Q: 'queen', R: 'rook', B: 'bishop', N: 'knight', P: 'pawn' };
const { P: _pawn, ...noPawn } = ORTHODOX;
const games = {
  chess: byColour('chess', ORTHODOX),
  swedishcannon: byColour('chess', { ...ORTHODOX, C: 'swedish-cannon' }),
  swedishcannon1: byColour('chess', { ...ORTHODOX, C: 'swedish-cannon' }),
  cannonrider: byColour('chess', { ...ORTHODOX, C: 'cannonrider' }),
  cannonriderscorpion: byColour('chess', { ...noPawn, S: 'scorpion', C: 'cannonrider' }),
  chesstonia: byColour('chess', { ...ORTHODOX, W: 'wazir', F: 'ferz', S: 'stone', C: 'track-cannon' }),
  cannon: byColour('cannon', { S: 'soldier', T: 'town' }),
  cannonshogi: {},
};
games.chesstonia.C.whiteTurned = 'chess/white-track-cannon-turned.svg';
games.chesstonia.C.blackTurned = 'chess/black-track-cannon-turned.svg';
for (const p of SHOGI) {
  const faces = [[p.letter.toUpperCase(), p]];
  if (p.promoted) faces.push(['+' + p.letter, p.promoted]);
  for (const [letter, f] of faces) {
    const entry = games.cannonshogi[letter] ?? { role: role(letter), kanji: {} };
    const files = { up: `shogi/${f.name}-up.svg`, down: `shogi/${f.name}-down.svg` };
    if (p.side) Object.assign(entry, { [p.side]: files });
    else Object.assign(entry, files);
    entry.kanji = p.side ? { ...entry.kanji, [p.side]: f.text } : f.text;
    games.cannonshogi[letter] = entry;
  }
}
for (const [game, pieces] of Object.entries(games)) {
  for (const entry of Object.values(pieces)) {
    for (const file of Object.values(entry).flatMap((v) => (typeof v === 'object' ? Object.values(v) : [v]))) {
      if (file.endsWith('.svg') && !existsSync(join(ROOT, file))) throw new Error(`${game}: ${file} is missing`);
    }
  }
}
writeFileSync(join(ROOT, 'pieces.json'), JSON.stringify(games, null, 1) + '\n');
console.log(`wrote ${written.length} pieces and pieces.json`);
