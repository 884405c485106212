// The board view: chessgroundx drawing one game's board, its pieces and its hands, showing
// the legal destinations it is given and telling its owner every gesture (a piece moved from
// a square to a square, or a piece put from a hand onto a square). It knows no rule: the
// destinations come from the rules API's legal moves, and the owner decides what a gesture
// means.

import { Chessground } from 'chessgroundx';
import type { Api } from 'chessgroundx/api';
import type { Config } from 'chessgroundx/config';
import type * as cg from 'chessgroundx/types';
import type { Color, MoveFacts, Placement, Square, VariantInfo } from './rules';
import { readPlacement } from './rules';
import { boardImage, themeFor, type BoardLine, type Theme } from './theme';

/** A square's chessgroundx key: ranks past 9 are `:`, `;`, ... (`a10` is `a:`). */
export function keyOf(sq: Square): cg.Key {
  const rank = parseInt(sq.slice(1), 10);
  return (sq[0] + String.fromCharCode(48 + rank)) as cg.Key;
}

export function squareOf(key: cg.Key): Square {
  return key[0] + String(key.charCodeAt(1) - 48);
}

function roleOf(letter: string): cg.Role {
  return `${letter.startsWith('+') ? 'p' : ''}${letter.replace('+', '').toLowerCase()}-piece` as cg.Role;
}

export type Gesture = { from: Square; to: Square; drop?: undefined } | { drop: string; to: Square; from?: undefined };

export interface BoardPosition {
  fen: string;
  turn: Color;
  /** The side the person may move now, or null (the engine's turn, the game over, a review). */
  movable: Color | null;
  /** The legal moves of the position (for the destinations shown). */
  moves: MoveFacts[];
  lastMove: MoveFacts | null;
  check: boolean;
  /** Lines drawn on the board under the pieces (Whitcher's cannons). */
  lines?: BoardLine[];
}

export class BoardView {
  private api: Api | null = null;
  private variant: VariantInfo | null = null;
  private theme: Theme = themeFor('chess');
  private placement: Placement | null = null;
  private lines: BoardLine[] = [];
  private orientationValue: Color = 'white';
  /** Drops onto an occupied square (the Swedish cannon's entry): letter -> keys. chessgroundx
   * only drops onto empty squares, so the view catches these gestures itself. */
  private occupiedDrops = new Map<string, Set<cg.Key>>();
  private readonly unbind: (() => void)[] = [];

  constructor(
    private readonly wrap: HTMLElement,
    private readonly pocketTop: HTMLElement,
    private readonly pocketBottom: HTMLElement,
    private readonly onGesture: (g: Gesture) => void,
  ) {
    this.bindOccupiedDrops();
    // hands beside the board use the board's square size
    if ('ResizeObserver' in window) {
      const ro = new ResizeObserver(() => this.publishSquareSize());
      ro.observe(wrap);
      this.unbind.push(() => ro.disconnect());
    }
  }

  private publishSquareSize(): void {
    if (!this.variant) return;
    const w = this.wrap.getBoundingClientRect().width;
    if (w > 0) document.documentElement.style.setProperty('--sq', `${Math.round(w / this.variant.files)}px`);
  }

  get orientation(): Color {
    return this.orientationValue;
  }

  /** Sets up an empty board of this game's size and looks (call before `show`). */
  setVariant(variant: VariantInfo, orientation: Color): void {
    this.variant = variant;
    this.theme = themeFor(variant.name);
    this.orientationValue = orientation;
    this.api?.destroy();
    this.wrap.className = `board-wrap ${this.theme.className}`;
    this.wrap.style.setProperty('--files', String(variant.files));
    this.wrap.style.setProperty('--ranks', String(variant.ranks));
    const hands = variant.handKinds;
    const hasHands = !!hands && (hands.white.length > 0 || hands.black.length > 0);
    for (const p of [this.pocketTop, this.pocketBottom]) {
      p.innerHTML = '';
      p.className = `pocket-holder ${this.theme.className}`;
      p.hidden = !hasHands;
    }
    // the start position until the first `show` (chessgroundx reads its hands from a FEN)
    this.placement = readPlacement(variant.startFen, variant.files, variant.ranks);
    const config: Config = {
      fen: this.boardFen(this.placement),
      orientation,
      coordinates: true,
      autoCastle: false,
      dimensions: { width: variant.files, height: variant.ranks },
      highlight: { lastMove: true, check: true },
      animation: { enabled: true, duration: 180 },
      movable: {
        free: false,
        color: undefined,
        showDests: true,
        events: {
          after: (orig, dest) => this.onGesture({ from: squareOf(orig), to: squareOf(dest) }),
          afterNewPiece: (piece, dest) =>
            this.onGesture({ drop: piece.role.replace('-piece', '').toUpperCase(), to: squareOf(dest) }),
        },
      },
      premovable: { enabled: false },
      draggable: { enabled: true, showGhost: true },
      drawable: { enabled: true, visible: true },
      pocketRoles: hasHands
        ? { white: hands!.white.map(roleOf), black: hands!.black.map(roleOf) }
        : undefined,
    };
    const top = hasHands ? document.createElement('div') : undefined;
    const bottom = hasHands ? document.createElement('div') : undefined;
    if (top) this.pocketTop.appendChild(top);
    if (bottom) this.pocketBottom.appendChild(bottom);
    this.api = Chessground(this.wrap, config, top, bottom);
    this.labelRanks();
    this.publishSquareSize();
  }

  /** Rank labels from the game's first rank number (chessgroundx writes 1..N; it redraws
   * them when the board turns). */
  private labelRanks(): void {
    const base = this.theme.rankBase;
    if (base === 1) return;
    this.wrap.querySelectorAll('coords.side coord').forEach((c, i) => {
      c.textContent = String(i + base);
    });
  }

  /** Shows a position: its pieces and hands, whose turn, the legal destinations. */
  show(pos: BoardPosition): void {
    if (!this.api || !this.variant) return;
    const placement = readPlacement(pos.fen, this.variant.files, this.variant.ranks);
    this.placement = placement;
    // the board may have moved on the page (panels beside it changed): measure it again
    this.api.state.dom.bounds.clear();
    this.lines = pos.lines ?? [];
    const dests: cg.Dests = new Map();
    this.occupiedDrops = new Map();
    if (pos.movable) {
      for (const m of pos.moves) {
        const orig = (m.drop ? `${m.drop}@` : keyOf(m.from!)) as cg.Orig;
        const key = keyOf(m.to);
        const list = dests.get(orig) ?? [];
        if (!list.includes(key)) list.push(key);
        dests.set(orig, list);
        if (m.drop && placement.pieces.has(m.to)) {
          const set = this.occupiedDrops.get(m.drop) ?? new Set<cg.Key>();
          set.add(key);
          this.occupiedDrops.set(m.drop, set);
        }
      }
    }
    const last = pos.lastMove;
    const lastMove: cg.Orig[] | undefined = last
      ? last.drop
        ? [`${last.drop}@` as cg.Orig, keyOf(last.to)]
        : [keyOf(last.from!), keyOf(last.to)]
      : undefined;
    this.api.set({
      fen: this.boardFen(placement),
      turnColor: pos.turn,
      check: pos.check ? pos.turn : false,
      lastMove,
      movable: { color: pos.movable ?? undefined, dests },
    });
    if (!last) this.api.state.lastMove = undefined;
    this.paintBoard();
  }

  /** Puts the pieces back where the last `show` had them (after a gesture that did nothing). */
  cancelGesture(): void {
    this.api?.cancelMove();
  }

  /** Takes the moving rights away at once (before the engine's reply is shown). */
  freeze(): void {
    if (this.api) this.api.set({ movable: { color: undefined, dests: new Map() } });
  }

  flip(): void {
    this.orientationValue = this.orientationValue === 'white' ? 'black' : 'white';
    this.api?.set({ orientation: this.orientationValue });
    this.labelRanks();
    this.paintBoard();
  }

  setOrientation(o: Color): void {
    if (o !== this.orientationValue) this.flip();
  }

  /** The centre of a square on the screen (for tests and for the chooser's placement). */
  squareCenter(sq: Square): { x: number; y: number } | null {
    const board = this.wrap.querySelector('cg-board');
    if (!board || !this.variant) return null;
    const r = board.getBoundingClientRect();
    const f = sq.charCodeAt(0) - 97;
    const k = parseInt(sq.slice(1), 10) - 1;
    const { files, ranks } = this.variant;
    const col = this.orientationValue === 'white' ? f : files - 1 - f;
    const row = this.orientationValue === 'white' ? ranks - 1 - k : k;
    return { x: r.left + ((col + 0.5) * r.width) / files, y: r.top + ((row + 0.5) * r.height) / ranks };
  }

  destroy(): void {
    this.api?.destroy();
    this.unbind.forEach(f => f());
  }

  /** The FEN chessgroundx reads: holes left out (they are drawn by the board's picture), the
   * hands in a bracket. */
  private boardFen(p: Placement): string {
    const rows: string[] = [];
    for (let r = p.ranks - 1; r >= 0; r--) {
      let row = '';
      let empty = 0;
      for (let f = 0; f < p.files; f++) {
        const piece = p.pieces.get(String.fromCharCode(97 + f) + String(r + 1));
        if (!piece) {
          empty++;
          continue;
        }
        if (empty) row += String(empty);
        empty = 0;
        row += piece;
      }
      if (empty) row += String(empty);
      rows.push(row);
    }
    return rows.join('/') + (p.hasHand ? `[${p.hand.join('')}]` : '');
  }

  private paintBoard(): void {
    const board = this.wrap.querySelector('cg-board') as HTMLElement | null;
    if (!board || !this.placement) return;
    board.style.backgroundImage = boardImage(this.theme, this.placement, this.orientationValue, this.lines);
  }

  /** Catches a hand piece put onto a square that holds a piece (by click or by drag) when
   * that is a legal destination, which chessgroundx would refuse. */
  private bindOccupiedDrops(): void {
    const pieceLetter = (p: cg.Piece) => p.role.replace('-piece', '').toUpperCase();
    const targetFor = (letter: string, pos: cg.NumberPair): cg.Key | undefined => {
      const key = this.api?.getKeyAtDomPos(pos);
      return key && this.occupiedDrops.get(letter)?.has(key) ? key : undefined;
    };
    const point = (e: MouseEvent | TouchEvent): cg.NumberPair | undefined => {
      if ('clientX' in e) return [e.clientX, e.clientY];
      const t = e.touches[0] ?? e.changedTouches[0];
      return t ? [t.clientX, t.clientY] : undefined;
    };
    // a click on the square while the hand piece is selected
    const onStart = (e: MouseEvent | TouchEvent) => {
      const s = this.api?.state;
      const sel = s?.selectable.selected;
      if (!s || !sel || typeof sel === 'string' || s.draggable.current) return;
      const pos = point(e);
      const key = pos && targetFor(pieceLetter(sel), pos);
      if (!key) return;
      e.preventDefault();
      e.stopImmediatePropagation();
      this.api!.cancelMove();
      this.onGesture({ drop: pieceLetter(sel), to: squareOf(key) });
    };
    // a hand piece dragged onto the square
    const onEnd = (e: MouseEvent | TouchEvent) => {
      const s = this.api?.state;
      const cur = s?.draggable.current;
      if (!s || !cur || cur.orig !== 'a0' || !cur.fromPocket) return;
      const pos = (e.type === 'touchend' ? undefined : point(e)) ?? cur.pos;
      const key = targetFor(pieceLetter(cur.piece), pos);
      if (!key) return;
      // let chessgroundx end its drag (it refuses the square and tidies up), then report it
      const letter = pieceLetter(cur.piece);
      setTimeout(() => this.onGesture({ drop: letter, to: squareOf(key) }), 0);
    };
    const boardStart = (e: Event) => {
      if ((e.target as HTMLElement).closest?.('cg-board')) onStart(e as MouseEvent);
    };
    this.wrap.addEventListener('mousedown', boardStart, { capture: true });
    this.wrap.addEventListener('touchstart', boardStart, { capture: true, passive: false });
    document.addEventListener('mouseup', onEnd as EventListener, { capture: true });
    document.addEventListener('touchend', onEnd as EventListener, { capture: true });
    this.unbind.push(
      () => this.wrap.removeEventListener('mousedown', boardStart, { capture: true }),
      () => this.wrap.removeEventListener('touchstart', boardStart, { capture: true }),
      () => document.removeEventListener('mouseup', onEnd as EventListener, { capture: true }),
      () => document.removeEventListener('touchend', onEnd as EventListener, { capture: true }),
    );
  }
}
