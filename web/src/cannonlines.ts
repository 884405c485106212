// Whitcher's Cannon shows its cannons: lines of a side's soldiers that act together. The page
// does not know what makes a cannon; it reads it from the legal moves the rules give: a move
// that carries a soldier over a row of its own side's pieces (a cannon's shift) shows that
// row, from the moving soldier to the last one it passes. Both sides' rows are shown: the side
// not to move is asked through the same position with the other side to move.

import type { BoardLine } from './theme';
import { coords, readPlacement, squareName, type Color, type MoveFacts, type Rules, type Square } from './rules';

/** The squares strictly between two squares on one rank, file or diagonal (none otherwise). */
function between(a: Square, b: Square): Square[] {
  const [f1, r1] = coords(a);
  const [f2, r2] = coords(b);
  const df = f2 - f1;
  const dr = r2 - r1;
  if (!(df === 0 || dr === 0 || Math.abs(df) === Math.abs(dr))) return [];
  const n = Math.max(Math.abs(df), Math.abs(dr));
  const sf = Math.sign(df);
  const sr = Math.sign(dr);
  const out: Square[] = [];
  for (let i = 1; i < n; i++) out.push(squareName(f1 + sf * i, r1 + sr * i));
  return out;
}

function linesFrom(moves: MoveFacts[], own: (sq: Square) => boolean, side: Color): BoardLine[] {
  const lines = new Map<string, BoardLine>();
  for (const m of moves) {
    if (!m.from || m.drop || m.legs.length !== 1) continue;
    const passed = between(m.from, m.to);
    if (passed.length === 0 || !passed.every(own)) continue;
    const ends = [m.from, passed[passed.length - 1]].sort();
    lines.set(ends.join('-'), { from: ends[0], to: ends[1], side });
  }
  return [...lines.values()];
}

export function cannonLines(rules: Rules, variant: string, fen: string, files: number, ranks: number): BoardLine[] {
  const placement = readPlacement(fen, files, ranks);
  const fields = fen.trim().split(/\s+/);
  const toMove: Color = fields[1] === 'b' ? 'black' : 'white';
  const ownOf = (side: Color) => (sq: Square) => {
    const p = placement.pieces.get(sq);
    return !!p && (p === p.toUpperCase()) === (side === 'white');
  };
  const out: BoardLine[] = [];
  for (const side of ['white', 'black'] as const) {
    const sideFen = [...fields];
    sideFen[1] = side === 'white' ? 'w' : 'b';
    let game;
    try {
      game = side === toMove ? rules.newGame(variant, fen) : rules.newGame(variant, sideFen.join(' '));
    } catch {
      continue; // a position the rules refuse with the other side to move: nothing to show
    }
    try {
      out.push(...linesFrom(game.legalMoves(), ownOf(side), side));
    } finally {
      game.free?.();
    }
  }
  return out;
}
