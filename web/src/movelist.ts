// The move list: the moves in the game's own notation (the rules API's `san`), numbered from
// the start position's move number, with the result and its reason at the end. A move can be
// clicked to look at the position after it (`onSelect`).

import type { Color, Outcome } from './rules';

/** What a review says of a move (rules.review's words, shown as they are). */
export interface MoveNote {
  mark: string | null;
  /** The score after the move, White's view, as `cannonade analyse` prints it. */
  eval: string | null;
  whiteChances: { win: number; draw: number; loss: number };
  best: boolean;
  betterLine: string[];
}

export interface ListedMove {
  san: string;
  uci: string;
  note?: MoveNote;
}

const markClass: Record<string, string> = { '?!': 'inaccuracy', '?': 'mistake', '??': 'blunder' };

export class MoveList {
  private moves: ListedMove[] = [];
  private firstSide: Color = 'white';
  private firstNumber = 1;
  private outcome: Outcome | null = null;
  private extraResult: { result: string; text: string } | null = null;
  private current = -1;

  constructor(
    private readonly el: HTMLElement,
    private readonly onSelect: (ply: number) => void,
  ) {}

  /** A new game from a position with `side` to move at move `number`. */
  reset(side: Color, number: number): void {
    this.moves = [];
    this.firstSide = side;
    this.firstNumber = Math.max(1, number || 1);
    this.outcome = null;
    this.extraResult = null;
    this.current = -1;
    this.render();
  }

  set(moves: ListedMove[], current = moves.length - 1): void {
    this.moves = moves.slice();
    this.current = current;
    this.render();
  }

  setOutcome(outcome: Outcome | null, other: { result: string; text: string } | null = null): void {
    this.outcome = outcome;
    this.extraResult = other;
    this.render();
  }

  /** Marks the move after which the shown position stands (-1: the start). */
  highlight(ply: number): void {
    this.current = ply;
    this.el.querySelectorAll('.move').forEach(m => {
      m.classList.toggle('current', Number((m as HTMLElement).dataset.ply) === ply);
    });
  }

  private render(): void {
    this.el.innerHTML = '';
    const offset = this.firstSide === 'black' ? 1 : 0;
    let row: HTMLElement | null = null;
    this.moves.forEach((m, i) => {
      const slot = i + offset;
      if (slot % 2 === 0 || row === null) {
        row = document.createElement('div');
        row.className = 'move-row';
        const num = document.createElement('span');
        num.className = 'move-number';
        num.textContent = `${this.firstNumber + Math.floor(slot / 2)}.`;
        row.appendChild(num);
        if (slot % 2 === 1) {
          const blank = document.createElement('span');
          blank.className = 'move blank';
          blank.textContent = '…';
          row.appendChild(blank);
        }
        this.el.appendChild(row);
      }
      const cell = document.createElement('button');
      cell.type = 'button';
      cell.className = 'move' + (i === this.current ? ' current' : '');
      cell.dataset.ply = String(i);
      cell.dataset.uci = m.uci;
      cell.textContent = m.san;
      if (m.note) {
        if (m.note.mark) {
          const mark = document.createElement('span');
          mark.className = `mark ${markClass[m.note.mark] ?? ''}`;
          mark.textContent = m.note.mark;
          cell.appendChild(mark);
          cell.dataset.mark = m.note.mark;
        }
        const ev = document.createElement('span');
        ev.className = 'eval';
        ev.textContent = m.note.eval ?? '';
        cell.appendChild(ev);
        const c = m.note.whiteChances;
        cell.title =
          `${m.note.eval ?? 'game over'} — White wins ${Math.round(c.win * 100)}%, draw ${Math.round(c.draw * 100)}%, ` +
          `Black wins ${Math.round(c.loss * 100)}%` +
          (m.note.betterLine.length ? `. Better: ${m.note.betterLine.join(' ')}` : '');
      }
      cell.addEventListener('click', () => this.onSelect(i));
      row!.appendChild(cell);
    });
    const end = this.outcome ?? this.extraResult;
    if (end) {
      const res = document.createElement('div');
      res.className = 'result';
      const score = document.createElement('strong');
      score.textContent = end.result;
      const why = document.createElement('span');
      why.className = 'reason';
      why.textContent = end.text;
      res.append(score, ' ', why);
      this.el.appendChild(res);
    }
    const cur = this.el.querySelector('.move.current') as HTMLElement | null;
    (cur ?? this.el.lastElementChild)?.scrollIntoView?.({ block: 'nearest' });
  }
}
