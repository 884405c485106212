// The review of a game, as `cannonade analyse` gives it: the engine searches every position
// of the game (a small fixed number of nodes each, so that a long game takes seconds, the
// progress shown), then the rules module judges the moves (rules.review: marks, losses, win
// chances, the better line, each side's totals, the annotated PGN). The page shows what it
// is told: the marks and scores in the move list, the totals, a graph of White's chances
// (a click on it shows that position), the chosen move's comment, the annotated PGN.

import type { EngineClient } from './engine';
import { readInfo, type InfoLine } from './info';
import type { ReviewPosition, ReviewResult, ReviewedMove, Rules } from './rules';

export interface ReviewGame {
  variant: string;
  startFen: string;
  moves: string[];
  /** The game starts from the game's own start position (no FEN tag in its PGN). */
  standardStart: boolean;
  headers: Record<string, string>;
}

/** Searches each position of `game` and asks the rules to judge it. `onProgress(done, all)`
 * after each position; `cancelled()` is asked between positions. */
export async function reviewGame(
  rules: Rules,
  engine: EngineClient,
  game: ReviewGame,
  nodes: number,
  options: Record<string, string | number | boolean>,
  onProgress: (done: number, all: number) => void,
  cancelled: () => boolean,
): Promise<ReviewResult | null> {
  if (typeof rules.review !== 'function') throw new Error('this build of the engine has no rules.review');
  const positions: ReviewPosition[] = [];
  const scratch = rules.newGame(game.variant, game.startFen);
  try {
    for (let i = 0; i <= game.moves.length; i++) {
      if (cancelled()) return null;
      if (i > 0) scratch.play(game.moves[i - 1]);
      if (scratch.outcome()) {
        // a finished position: nothing to search
        positions.push({ score: null, pv: [] });
      } else {
        const seen: { last: InfoLine | null; any: InfoLine | null } = { last: null, any: null };
        await engine.go(game.startFen, game.moves.slice(0, i), { nodes }, {
          options: { ...options, MultiPV: 1 },
          onInfo: line => {
            const info = readInfo(line);
            if (!info || info.multipv !== 1) return;
            seen.any = info;
            if (!info.bound && info.pv.length) seen.last = info;
          },
        });
        const got = seen.last ?? seen.any;
        positions.push(got ? { score: got.score, pv: got.pv } : { score: null, pv: [] });
      }
      onProgress(i + 1, game.moves.length + 1);
    }
  } finally {
    scratch.free?.();
  }
  if (cancelled()) return null;
  return rules.review({
    variant: game.variant,
    startFen: game.standardStart ? null : game.startFen,
    moves: game.moves,
    positions,
    headers: game.headers,
    limit: `nodes ${nodes}`,
  });
}

const SVG = 'http://www.w3.org/2000/svg';
const markClass: Record<string, string> = { '?!': 'inaccuracy', '?': 'mistake', '??': 'blunder' };

/** White's expected score from the chances the rules gave (0..1): the graph's height. */
const share = (c: { win: number; draw: number }) => c.win + c.draw / 2;

export class ReviewPanel {
  private result: ReviewResult | null = null;
  private current = -1;
  private readonly graph: HTMLElement;
  private readonly totals: HTMLElement;
  private readonly comment: HTMLElement;
  private readonly pgnBox: HTMLTextAreaElement;
  private readonly body: HTMLElement;

  constructor(
    root: HTMLElement,
    /** A ply chosen on the graph (-1: the start). */
    private readonly onSelect: (ply: number) => void,
    private readonly fileName: () => string,
  ) {
    this.graph = root.querySelector('#review-graph') as HTMLElement;
    this.totals = root.querySelector('#review-totals') as HTMLElement;
    this.comment = root.querySelector('#review-comment') as HTMLElement;
    this.pgnBox = root.querySelector('#review-pgn') as HTMLTextAreaElement;
    this.body = root.querySelector('#review-body') as HTMLElement;
    root.querySelector('#review-save')!.addEventListener('click', () => this.save());
    root.querySelector('#review-copy')!.addEventListener('click', () => void this.copy());
  }

  get shown(): ReviewResult | null {
    return this.result;
  }

  set(result: ReviewResult | null): void {
    this.result = result;
    this.body.hidden = !result;
    if (!result) {
      this.graph.replaceChildren();
      this.totals.replaceChildren();
      this.comment.textContent = '';
      this.pgnBox.value = '';
      return;
    }
    this.pgnBox.value = result.pgn;
    this.renderTotals(result);
    this.renderGraph(result);
    this.select(this.current);
  }

  /** The ply shown on the board (-1: the start): marked on the graph, its comment shown. */
  select(ply: number): void {
    this.current = ply;
    const r = this.result;
    if (!r) return;
    this.graph.querySelectorAll('.now').forEach(e => e.remove());
    const svg = this.graph.querySelector('svg');
    const n = r.moves.length;
    if (svg && n > 0) {
      const x = ((ply + 1) / n) * 1000;
      const line = document.createElementNS(SVG, 'line');
      line.setAttribute('class', 'now');
      for (const [k, v] of [['x1', x], ['x2', x], ['y1', 0], ['y2', 200]] as const) line.setAttribute(k, String(v));
      svg.appendChild(line);
    }
    const m: ReviewedMove | undefined = r.moves[ply];
    if (!m) {
      this.comment.textContent = `Start: ${r.start.eval ?? ''}`;
      return;
    }
    const no = m.moveNumber ?? Math.floor((m.ply + 1) / 2);
    const c = m.whiteChances;
    const text = [
      `${no}${m.mover === 'white' ? '.' : '…'} ${m.san}${m.mark ?? ''} ${m.eval ?? ''}`.trimEnd(),
      `White ${Math.round(c.win * 100)}% · draw ${Math.round(c.draw * 100)}% · Black ${Math.round(c.loss * 100)}%`,
    ];
    if (m.mark && m.betterLine.length) text.push(`Better: ${m.betterLine.join(' ')}`);
    else if (m.best) text.push("The engine's choice.");
    this.comment.textContent = text.join(' — ');
    this.comment.className = `comment ${m.mark ? markClass[m.mark] : ''}`;
  }

  private renderTotals(r: ReviewResult): void {
    const table = document.createElement('table');
    const rows: [string, (s: typeof r.totals.white) => string][] = [
      ['Inaccuracies ?!', s => String(s.inaccuracies)],
      ['Mistakes ?', s => String(s.mistakes)],
      ['Blunders ??', s => String(s.blunders)],
      ['Average loss', s => `${(s.averageLoss * 100).toFixed(1)}%`],
      ['Average centipawn loss', s => String(Math.round(s.acpl))],
    ];
    const head = document.createElement('tr');
    head.innerHTML = '<th></th><th>White</th><th>Black</th>';
    table.appendChild(head);
    for (const [label, f] of rows) {
      const tr = document.createElement('tr');
      const th = document.createElement('th');
      th.textContent = label;
      const w = document.createElement('td');
      w.textContent = f(r.totals.white);
      const b = document.createElement('td');
      b.textContent = f(r.totals.black);
      tr.append(th, w, b);
      table.appendChild(tr);
    }
    this.totals.replaceChildren(table);
  }

  /** White's chances after each move, from the start (left) to the end (right). */
  private renderGraph(r: ReviewResult): void {
    const W = 1000;
    const H = 200;
    const n = Math.max(1, r.moves.length);
    const pts: [number, number][] = [[0, H * (1 - share(r.start.whiteChances))]];
    r.moves.forEach((m, i) => pts.push([((i + 1) / n) * W, H * (1 - share(m.whiteChances))]));
    const svg = document.createElementNS(SVG, 'svg');
    svg.setAttribute('viewBox', `0 0 ${W} ${H}`);
    svg.setAttribute('preserveAspectRatio', 'none');
    svg.setAttribute('role', 'img');
    svg.setAttribute('aria-label', "White's chances through the game");
    const area = document.createElementNS(SVG, 'path');
    area.setAttribute('class', 'area');
    area.setAttribute('d', `M0,${H} ` + pts.map(([x, y]) => `L${x.toFixed(1)},${y.toFixed(1)}`).join(' ') + ` L${W},${H} Z`);
    const mid = document.createElementNS(SVG, 'line');
    mid.setAttribute('class', 'mid');
    for (const [k, v] of [['x1', 0], ['x2', W], ['y1', H / 2], ['y2', H / 2]] as const) mid.setAttribute(k, String(v));
    const curve = document.createElementNS(SVG, 'polyline');
    curve.setAttribute('class', 'curve');
    curve.setAttribute('points', pts.map(([x, y]) => `${x.toFixed(1)},${y.toFixed(1)}`).join(' '));
    svg.append(area, mid, curve);
    r.moves.forEach((m, i) => {
      if (!m.mark) return;
      const dot = document.createElementNS(SVG, 'circle');
      dot.setAttribute('class', `dot ${markClass[m.mark]}`);
      dot.setAttribute('cx', pts[i + 1][0].toFixed(1));
      dot.setAttribute('cy', pts[i + 1][1].toFixed(1));
      dot.setAttribute('r', '9');
      dot.dataset.ply = String(i);
      svg.appendChild(dot);
    });
    // a click anywhere picks the nearest position
    svg.addEventListener('click', e => {
      const box = svg.getBoundingClientRect();
      const x = ((e.clientX - box.left) / box.width) * n;
      this.onSelect(Math.min(n - 1, Math.max(-1, Math.round(x) - 1)));
    });
    this.graph.replaceChildren(svg);
  }

  private save(): void {
    if (!this.result) return;
    const blob = new Blob([this.result.pgn], { type: 'application/x-chess-pgn' });
    const a = document.createElement('a');
    a.href = URL.createObjectURL(blob);
    a.download = this.fileName();
    a.click();
    setTimeout(() => URL.revokeObjectURL(a.href), 1000);
  }

  private async copy(): Promise<void> {
    if (!this.result) return;
    try {
      await navigator.clipboard.writeText(this.result.pgn);
    } catch {
      // no clipboard (an insecure page): the PGN is in the box below to copy by hand
      this.pgnBox.closest('details')?.setAttribute('open', '');
    }
  }
}
