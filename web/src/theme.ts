// How each game's board looks: the squares' colours, the holes, Chesstonia's tracks and
// storage, the shogi board's lines, Whitcher's grid of lines with the pieces on its points.
// This is drawing, not rules: which squares exist comes from the FEN (`*` is a hole), and
// the Cannonrider's colours follow its rules file (b1 dark), which XBoard's command line in
// docs/xboard.md also paints.

import type { Color, Placement, Square } from './rules';
import { coords, squareName } from './rules';

export type BoardStyle = 'checker' | 'shogi' | 'grid';

export interface Theme {
  style: BoardStyle;
  /** Checker boards: a square (file, rank), counted from 0 at a1, is dark when
   * (file + rank + darkOffset) is even. Chess: a1 dark (offset 0). The Gustavian board's
   * ordinary a1 is our b1, one file over (offset 1: b1 dark, a1 light). */
  darkOffset: number;
  /** The number the first rank is labelled with: 1, or 0 where the game's notation numbers a
   * 10-rank board's ranks from 0 (Whitcher's Cannon, whose PGN moves are XBoard's: `T@e0`),
   * so that the board's labels and the move list agree. */
  rankBase: number;
  /** Whitcher's Cannon: the cannons (lines of soldiers that can shift) are drawn as lines. */
  cannonLines?: boolean;
  /** Chesstonia's machinery: square -> what it is, drawn in its own colours. */
  special?: (file: number, rank: number) => 'track' | 'storage' | 'load' | null;
  /** The class the board, its hands and the chooser get: `v-<game>`, which pieces.css gives
   * the game's piece pictures. */
  className: string;
}

const chesstoniaSpecial = (file: number, rank: number): 'track' | 'storage' | 'load' | null => {
  // files a..l are 0..11: a = black's storage (a8 its load square), b = black's track,
  // k = white's track, l = white's storage (l1 its load square); tracks and storage on 3..6.
  if ((file === 0 && rank === 7) || (file === 11 && rank === 0)) return 'load';
  if (rank < 2 || rank > 5) return null;
  if (file === 1 || file === 10) return 'track';
  if (file === 0 || file === 11) return 'storage';
  return null;
};

export function themeFor(variant: string): Theme {
  const className = `v-${variant}`;
  switch (variant) {
    case 'cannonshogi':
      return { style: 'shogi', darkOffset: 0, rankBase: 1, className };
    case 'cannon':
      return { style: 'grid', darkOffset: 0, rankBase: 0, className, cannonLines: true };
    case 'cannonrider':
    case 'cannonriderscorpion':
      return { style: 'checker', darkOffset: 1, rankBase: 1, className };
    case 'chesstonia':
      return { style: 'checker', darkOffset: 0, rankBase: 1, className, special: chesstoniaSpecial };
    default:
      return { style: 'checker', darkOffset: 0, rankBase: 1, className };
  }
}

const LIGHT = '#f0d9b5';
const DARK = '#b58863';
const SHOGI_WOOD = '#e9c787';
const SHOGI_LINE = '#5b4421';
const GRID_BG = '#dcb978';
const GRID_LINE = '#4a3518';

/** A line drawn on the board under the pieces, from one square's centre to another's. */
export interface BoardLine {
  from: Square;
  to: Square;
  side: Color;
}

/** The board's picture (an SVG data URL), drawn as seen with `orientation` at the bottom:
 * one unit per square; `lines` (Whitcher's cannons) on top of it. */
export function boardImage(theme: Theme, placement: Placement, orientation: Color, lines: BoardLine[] = []): string {
  const { files, ranks, holes } = placement;
  const flip = orientation === 'black';
  const x = (f: number) => (flip ? files - 1 - f : f);
  const y = (r: number) => (flip ? r : ranks - 1 - r);
  const parts: string[] = [];
  const rect = (f: number, r: number, fill: string, extra = '') =>
    parts.push(`<rect x="${x(f)}" y="${y(r)}" width="1" height="1" fill="${fill}" shape-rendering="crispEdges"${extra}/>`);

  if (theme.style === 'checker') {
    for (let f = 0; f < files; f++)
      for (let r = 0; r < ranks; r++) {
        if (holes.has(squareName(f, r))) continue;
        const special = theme.special?.(f, r) ?? null;
        if (special === 'track') {
          rect(f, r, '#6d6a63');
          // the rail the cannon runs on
          parts.push(
            `<rect x="${x(f) + 0.44}" y="${y(r)}" width="0.12" height="1" fill="#3d3b37"/>`,
          );
        } else if (special === 'storage') {
          rect(f, r, '#c9b68f');
          parts.push(
            `<rect x="${x(f) + 0.1}" y="${y(r) + 0.1}" width="0.8" height="0.8" rx="0.12" fill="none" stroke="#8a7550" stroke-width="0.05"/>`,
          );
        } else if (special === 'load') {
          rect(f, r, '#c9b68f');
          parts.push(
            `<circle cx="${x(f) + 0.5}" cy="${y(r) + 0.5}" r="0.42" fill="#a8946c" stroke="#6b5837" stroke-width="0.06"/>`,
          );
        } else {
          const dark = (f + r + theme.darkOffset) % 2 === 0;
          rect(f, r, dark ? DARK : LIGHT);
        }
      }
  } else if (theme.style === 'shogi') {
    parts.push(`<rect x="0" y="0" width="${files}" height="${ranks}" fill="${SHOGI_WOOD}"/>`);
    for (let i = 0; i <= files; i++)
      parts.push(`<line x1="${i}" y1="0" x2="${i}" y2="${ranks}" stroke="${SHOGI_LINE}" stroke-width="0.025"/>`);
    for (let j = 0; j <= ranks; j++)
      parts.push(`<line x1="0" y1="${j}" x2="${files}" y2="${j}" stroke="${SHOGI_LINE}" stroke-width="0.025"/>`);
    // the four star points that mark the promotion zones' edges
    for (const px of [3, files - 3])
      for (const py of [3, ranks - 3]) parts.push(`<circle cx="${px}" cy="${py}" r="0.07" fill="${SHOGI_LINE}"/>`);
  } else {
    // Whitcher's board: ten lines each way, the pieces stand on their points
    parts.push(`<rect x="0" y="0" width="${files}" height="${ranks}" fill="${GRID_BG}"/>`);
    for (let i = 0; i < files; i++)
      parts.push(
        `<line x1="${i + 0.5}" y1="0.5" x2="${i + 0.5}" y2="${ranks - 0.5}" stroke="${GRID_LINE}" stroke-width="0.03"/>`,
      );
    for (let j = 0; j < ranks; j++)
      parts.push(
        `<line x1="0.5" y1="${j + 0.5}" x2="${files - 0.5}" y2="${j + 0.5}" stroke="${GRID_LINE}" stroke-width="0.03"/>`,
      );
    // each side's first rank, where its town stands
    for (const r of [0, ranks - 1])
      parts.push(
        `<line x1="0.5" y1="${y(r) + 0.5}" x2="${files - 0.5}" y2="${y(r) + 0.5}" stroke="${GRID_LINE}" stroke-width="0.08"/>`,
      );
  }
  for (const l of lines) {
    const [f1, r1] = coords(l.from);
    const [f2, r2] = coords(l.to);
    const stroke = l.side === 'white' ? 'rgba(255,250,235,0.85)' : 'rgba(25,20,15,0.8)';
    parts.push(
      `<line x1="${x(f1) + 0.5}" y1="${y(r1) + 0.5}" x2="${x(f2) + 0.5}" y2="${y(r2) + 0.5}" stroke="${stroke}" stroke-width="0.16" stroke-linecap="round"/>`,
    );
  }
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${files} ${ranks}" preserveAspectRatio="none">` +
    parts.join('') +
    '</svg>';
  return `url("data:image/svg+xml,${encodeURIComponent(svg)}")`;
}
