// The rules API of the engine's WebAssembly build (`CannonadeRules()` in cannonade.js, see
// docs/web.md), typed for the page. The page asks it everything a rule decides: which moves
// are legal, what they are called, whether the game is over. Nothing in web/src decides a rule.

export type Color = 'white' | 'black';

/** A square as the rules name it: file letter, then the rank from 1 (`e2`, `a10`, `l1`). */
export type Square = string;

export interface VariantInfo {
  /** The UCI_Variant name (`cannonshogi`). */
  name: string;
  /** The game's name for people (`Cannon Shogi`). */
  fullName: string;
  files: number;
  ranks: number;
  startFen: string;
  /** The kinds of piece each side can hold in hand or in reserve (upper-case letters). */
  handKinds?: { white: string[]; black: string[] };
  xboardName?: string;
}

/** One legal move and what the rules know about it (MoveFacts of the engine's session). */
export interface MoveFacts {
  uci: string;
  san: string;
  /** Where the moving piece stands; null for a drop (or a piece brought in from reserve). */
  from: Square | null;
  /** The first destination: where the piece goes, or the victim of a shot. */
  to: Square;
  /** Where each leg ends: `[to]`, or `[victim, from]` for a shot (a capture without moving). */
  legs: Square[];
  /** The same gesture is also legal with the other choice of promotion (Cannon Shogi). */
  promotionChoice: boolean;
  /** The dropped piece's upper-case letter, or null. */
  drop: string | null;
  /** The moving piece as the FEN writes it (`P`, `+p`), null for a drop. */
  piece: string | null;
  capture: boolean;
  /** Every square whose contents the move changes. */
  changed: Square[];
  /** A piece brought onto an occupied square (the Swedish cannon's entry): where the piece
   * that stood there went. */
  displaced: Square | null;
}

export interface Outcome {
  result: '1-0' | '0-1' | '1/2-1/2';
  reason: string;
  text: string;
}

export interface Game {
  fen(): string;
  variant(): string;
  sideToMove(): Color;
  legalMoves(): MoveFacts[];
  play(uci: string): MoveFacts;
  undo(): void;
  moves(): string[];
  outcome(): Outcome | null;
  inCheck(): boolean;
  pgn(headers?: Record<string, string>): string;
  free?(): void;
}

export interface PgnGame {
  variant: string;
  headers: Record<string, string>;
  startFen: string | null;
  moves: string[];
  result: string | null;
}

/** One searched position of a game under review (the side to move's view, as UCI prints). */
export interface ReviewPosition {
  score: { cp: number } | { mate: number } | null;
  pv: string[];
}

export interface ReviewInput {
  variant: string;
  startFen: string | null;
  moves: string[];
  /** One per position: before the first move ... after the last. */
  positions: ReviewPosition[];
  headers?: Record<string, string>;
  /** How the positions were searched (`nodes 100000`), for the annotated PGN's Annotator tag. */
  limit?: string;
}

export interface Chances {
  win: number;
  draw: number;
  loss: number;
}

export interface ReviewedMove {
  ply: number;
  /** The move's number as the PGN writes it. */
  moveNumber?: number;
  uci: string;
  san: string;
  mover: Color;
  /** Null where the game is over after the move. */
  eval: string | null;
  whiteCp: number;
  whiteChances: Chances;
  loss: number;
  mark: null | '?!' | '?' | '??';
  best: boolean;
  betterLine: string[];
}

export interface SideTotals {
  moves: number;
  averageLoss: number;
  inaccuracies: number;
  mistakes: number;
  blunders: number;
  acpl: number;
}

/** The review of a game (docs/web.md): the same judging as `cannonade analyse`. */
export interface ReviewResult {
  moves: ReviewedMove[];
  start: { whiteCp: number; whiteChances: Chances; eval: string | null };
  totals: { white: SideTotals; black: SideTotals };
  /** The totals in words, as `cannonade analyse` says them. */
  summary?: string;
  pgn: string;
}

export interface Rules {
  variants(): VariantInfo[];
  newGame(variant: string, fen?: string): Game;
  /** Every game of a PGN text; a game without a Variant tag is of `defaultVariant`. */
  readPgn(text: string, defaultVariant?: string): PgnGame[];
  review(input: ReviewInput): ReviewResult;
}

declare global {
  interface Window {
    CannonadeRules?: (options?: object) => Promise<Rules>;
    Cannonade?: (options?: object) => Promise<RawEngine>;
  }
}

/** The engine object of cannonade.js (the interface pages made for fairy-stockfish.wasm use). */
export interface RawEngine {
  addMessageListener(fn: (line: string) => void): void;
  removeMessageListener(fn: (line: string) => void): void;
  postMessage(line: string): void;
  terminate(): void;
}

/** Loads the rules module from cannonade.js (already on the page as a classic script). */
export async function loadRules(): Promise<Rules> {
  if (!window.CannonadeRules) throw new Error('cannonade.js is not loaded: CannonadeRules() is missing');
  return window.CannonadeRules();
}

/** The message of anything thrown, for the page's own words around it. */
export function messageOf(e: unknown): string {
  if (e instanceof Error) return e.message;
  return String(e);
}

/** The file (0-based) and rank (0-based) of a square name. */
export function coords(sq: Square): [number, number] {
  return [sq.charCodeAt(0) - 97, parseInt(sq.slice(1), 10) - 1];
}

export function squareName(file: number, rank: number): Square {
  return String.fromCharCode(97 + file) + String(rank + 1);
}

/** The placement of a FEN read for display: what stands where, what is in hand. Reading a
 * FEN's placement is the page's business (it draws it); what the pieces may do is not. */
export interface Placement {
  files: number;
  ranks: number;
  /** Square -> piece as the FEN writes it (`K`, `p`, `+R`). */
  pieces: Map<Square, string>;
  /** Squares that do not exist (`*` in the FEN). */
  holes: Set<Square>;
  /** Pieces in hand, letters as in the FEN (upper case white). */
  hand: string[];
  /** Whether the FEN has a bracket (a hand, even an empty one). */
  hasHand: boolean;
}

export function readPlacement(fen: string, files: number, ranks: number): Placement {
  const field = fen.trim().split(/\s+/)[0] ?? '';
  const open = field.indexOf('[');
  const board = open >= 0 ? field.slice(0, open) : field;
  const handText = open >= 0 ? field.slice(open + 1, field.indexOf(']', open) >= 0 ? field.indexOf(']', open) : undefined) : '';
  const pieces = new Map<Square, string>();
  const holes = new Set<Square>();
  const rows = board.split('/');
  rows.forEach((row, i) => {
    const rank = ranks - 1 - i;
    let file = 0;
    let num = '';
    let promoted = '';
    for (const c of row) {
      if (c >= '0' && c <= '9') {
        num += c;
        continue;
      }
      if (num) {
        file += parseInt(num, 10);
        num = '';
      }
      if (c === '+') {
        promoted = '+';
      } else if (c === '*') {
        holes.add(squareName(file, rank));
        file++;
      } else if (c === '~') {
        // a promoted-piece mark some writers add after the letter: nothing to draw
      } else {
        pieces.set(squareName(file, rank), promoted + c);
        promoted = '';
        file++;
      }
    }
  });
  const hand = [...handText].filter(c => /[A-Za-z]/.test(c));
  return { files, ranks, pieces, holes, hand, hasHand: open >= 0 };
}
