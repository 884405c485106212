// The analysis board's engine lines: the engine searches the position shown (`go infinite`,
// MultiPV 1..5, UCI_ShowWDL), and each line is shown with its score, depth and win chances,
// its moves in the game's notation (the rules API names them: a scratch game plays the line),
// updating as the search deepens, until stopped. A click on a line's move plays the line up
// to it on the board. The evaluation bar beside the board follows the first line.

import type { EngineClient } from './engine';
import { readInfo, scoreText, whiteScore, whiteWdl, type InfoLine, type Score } from './info';
import type { Color, Rules } from './rules';

/** The position to analyse. */
export interface AnalysisPosition {
  variant: string;
  fen: string;
  sideToMove: Color;
  /** How the game ended here (nothing to search), or null. */
  over: string | null;
}

interface ShownLine {
  info: InfoLine;
  white: Score;
  wdl: [number, number, number] | null;
  sans: string[];
}

/** The evaluation bar: White's share of the expected result, from the bottom where White
 * sits (the top where the board is turned). */
export class EvalBar {
  private readonly fill: HTMLElement;
  private readonly label: HTMLElement;
  constructor(private readonly el: HTMLElement) {
    el.classList.add('eval-bar');
    this.fill = document.createElement('div');
    this.fill.className = 'eval-fill';
    this.label = document.createElement('div');
    this.label.className = 'eval-label';
    el.append(this.fill, this.label);
    this.set(null, '');
  }

  /** `share`: White's expected score 0..1 (null: unknown, the bar at half). */
  set(share: number | null, text: string): void {
    const s = share === null ? 0.5 : Math.min(1, Math.max(0, share));
    this.fill.style.height = `${(s * 100).toFixed(1)}%`;
    this.label.textContent = text;
    this.el.dataset.share = share === null ? '' : s.toFixed(3);
    this.el.title = text ? `Evaluation ${text} (White's view)` : '';
  }

  setOrientation(o: Color): void {
    this.el.classList.toggle('flipped', o === 'black');
  }

  show(on: boolean): void {
    this.el.hidden = !on;
  }
}

/** White's expected score from win chances in White's view (per mille). */
export function expectedShare(wdl: [number, number, number]): number {
  return (wdl[0] + wdl[1] / 2) / 1000;
}

export class Analyser {
  private position: AnalysisPosition | null = null;
  private running = false;
  private multiPv = 3;
  private lines = new Map<number, ShownLine>();
  private renderTimer: number | null = null;
  private search = 0;
  private readonly list: HTMLElement;
  private readonly info: HTMLElement;
  private readonly toggleButton: HTMLButtonElement;
  private readonly pvSelect: HTMLSelectElement;

  constructor(
    private readonly rules: Rules,
    private readonly engine: EngineClient,
    root: HTMLElement,
    private readonly bar: EvalBar,
    /** Plays these moves (UCI) from the analysed position on the board. */
    private readonly onPlay: (moves: string[]) => void,
    /** The options a search at full strength needs (the level off). */
    private readonly strength: () => Record<string, string | number | boolean>,
  ) {
    this.list = root.querySelector('#lines') as HTMLElement;
    this.info = root.querySelector('#analysis-info') as HTMLElement;
    this.toggleButton = root.querySelector('#analyse') as HTMLButtonElement;
    this.pvSelect = root.querySelector('#multipv') as HTMLSelectElement;
    this.toggleButton.addEventListener('click', () => (this.running ? this.stop() : this.start()));
    this.pvSelect.addEventListener('change', () => {
      this.multiPv = Number(this.pvSelect.value) || 1;
      if (this.running) this.restart();
    });
    this.multiPv = Number(this.pvSelect.value) || 3;
  }

  get isRunning(): boolean {
    return this.running;
  }

  /** The position shown changed: analyse it (if running), else just clear the lines. */
  setPosition(pos: AnalysisPosition): void {
    const same = this.position && this.position.fen === pos.fen && this.position.variant === pos.variant;
    this.position = pos;
    if (same) return;
    if (this.running) this.restart();
    else this.clear('Press “Analyse” for the engine’s lines.');
  }

  start(): void {
    this.running = true;
    this.toggleButton.textContent = 'Stop';
    this.toggleButton.classList.add('running');
    this.restart();
  }

  stop(): void {
    if (!this.running) return;
    this.running = false;
    this.search++;
    this.toggleButton.textContent = 'Analyse';
    this.toggleButton.classList.remove('running');
    this.engine.stop();
    if (this.renderTimer !== null) window.clearTimeout(this.renderTimer);
    this.render();
    if (!this.lines.size) this.info.textContent = 'Stopped.';
  }

  private clear(text: string): void {
    this.lines = new Map();
    this.list.replaceChildren();
    this.info.textContent = text;
    this.bar.set(null, '');
  }

  private restart(): void {
    const pos = this.position;
    const id = ++this.search;
    this.clear(pos?.over ? `Game over: ${pos.over}` : 'Searching…');
    if (!pos || pos.over) {
      this.engine.stop();
      return;
    }
    void this.engine.go(pos.fen, [], { infinite: true }, {
      options: { ...this.strength(), MultiPV: this.multiPv, UCI_ShowWDL: true },
      onInfo: line => {
        if (id === this.search) this.onInfo(line, pos);
      },
    });
  }

  private onInfo(line: string, pos: AnalysisPosition): void {
    const info = readInfo(line);
    if (!info || info.bound || info.pv.length === 0 || info.multipv > this.multiPv) return;
    this.lines.set(info.multipv, {
      info,
      white: whiteScore(info.score, pos.sideToMove),
      wdl: info.wdl ? whiteWdl(info.wdl, pos.sideToMove) : null,
      sans: this.names(pos, info.pv),
    });
    // a new depth's first line replaces the lines of the depth before as they come
    if (this.renderTimer === null) this.renderTimer = window.setTimeout(() => this.render(), 80);
  }

  /** The line's moves in the game's notation, as the rules API names them. */
  private names(pos: AnalysisPosition, pv: string[]): string[] {
    const sans: string[] = [];
    let g;
    try {
      g = this.rules.newGame(pos.variant, pos.fen);
      for (const uci of pv) sans.push(g.play(uci).san);
    } catch {
      // a move the rules refuse ends the line there (it cannot happen with a current line)
    } finally {
      g?.free?.();
    }
    return sans;
  }

  private render(): void {
    this.renderTimer = null;
    const pos = this.position;
    if (!pos) return;
    const fields = pos.fen.trim().split(/\s+/);
    const moveNo = parseInt(fields[fields.length - 1], 10) || 1;
    const rows: HTMLElement[] = [];
    const keys = [...this.lines.keys()].sort((a, b) => a - b);
    for (const k of keys) {
      const l = this.lines.get(k)!;
      const row = document.createElement('div');
      row.className = 'line';
      row.dataset.multipv = String(k);
      const score = document.createElement('span');
      score.className = 'line-score';
      score.textContent = scoreText(l.white);
      const meta = document.createElement('span');
      meta.className = 'line-meta';
      const wdl = l.wdl ? `W ${(l.wdl[0] / 10).toFixed(0)}% D ${(l.wdl[1] / 10).toFixed(0)}% L ${(l.wdl[2] / 10).toFixed(0)}%` : '';
      meta.textContent = `d${l.info.depth}${wdl ? ' · ' + wdl : ''}`;
      meta.title = 'Depth; win, draw and loss chances for White';
      const moves = document.createElement('span');
      moves.className = 'line-moves';
      let side = pos.sideToMove;
      let no = moveNo;
      l.sans.forEach((san, i) => {
        if (side === 'white' || i === 0) {
          const n = document.createElement('span');
          n.className = 'line-no';
          n.textContent = side === 'white' ? `${no}.` : `${no}…`;
          moves.append(n);
        }
        const b = document.createElement('button');
        b.type = 'button';
        b.className = 'line-move';
        b.textContent = san;
        b.dataset.uci = l.info.pv[i];
        b.addEventListener('click', () => this.onPlay(l.info.pv.slice(0, i + 1)));
        moves.append(b);
        if (side === 'black') no++;
        side = side === 'white' ? 'black' : 'white';
      });
      row.append(score, meta, moves);
      rows.push(row);
    }
    this.list.replaceChildren(...rows);
    const first = this.lines.get(1);
    if (first) {
      const nps = first.info.nps ? ` · ${Math.round(first.info.nps / 1000)} kn/s` : '';
      this.info.textContent = `Depth ${first.info.depth}${nps}${this.running ? '' : ' — stopped'}`;
      this.bar.set(first.wdl ? expectedShare(first.wdl) : cpShare(first.white), scoreText(first.white));
    }
  }
}

/** Without win chances (an engine without UCI_ShowWDL): the bar from the score's sign only. */
function cpShare(s: Score): number {
  if ('mate' in s) return s.mate > 0 ? 1 : 0;
  return s.cp > 0 ? 0.6 : s.cp < 0 ? 0.4 : 0.5;
}
