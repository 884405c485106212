// The game controller: one game between the person and the engine. It keeps the rules
// API's game, turns the board's gestures into legal moves (asking where one gesture matches
// several), asks the engine for its replies, runs the clocks, takes moves back, and reads and
// writes PGN and FEN. The views (board, clocks, move list) only show what it tells them.

import type { BoardView, Gesture } from './board';
import { cannonLines } from './cannonlines';
import { choose, type Choice } from './chooser';
import { Clocks, type TimeControl } from './clock';
import type { EngineClient, SearchLimits } from './engine';
import type { MoveList, MoveNote } from './movelist';
import {
  messageOf,
  readPlacement,
  type Color,
  type Game,
  type MoveFacts,
  type Outcome,
  type Rules,
  type VariantInfo,
} from './rules';
import { themeFor } from './theme';

export type Level = { kind: 'skill'; skill: number } | { kind: 'elo'; elo: number };
export type Timing = { kind: 'clock'; clock: TimeControl } | { kind: 'movetime'; seconds: number };

export interface GameSettings {
  variant: string;
  /** The side the person plays. */
  side: Color;
  level: Level;
  timing: Timing;
}

interface Ply {
  facts: MoveFacts;
  /** Both clocks when the position after this move arose. */
  clocks: Record<Color, number>;
}

/** How a game ended that the rules do not decide (time, resignation). */
interface OtherEnd {
  result: string;
  text: string;
}

export interface Status {
  text: string;
  kind: 'turn' | 'thinking' | 'over' | 'review' | 'error';
}

const sideName = (c: Color) => (c === 'white' ? 'White' : 'Black');

export class GameController {
  settings: GameSettings;
  variant!: VariantInfo;
  game!: Game;
  startFen = '';
  private plies: Ply[] = [];
  private startClocks: Record<Color, number> = { white: 0, black: 0 };
  private otherEnd: OtherEnd | null = null;
  /** Bumped whenever the game changes under a running search, so its answer is dropped. */
  private token = 0;
  private thinking = false;
  /** The ply shown while the person looks back through the game; null: the live position. */
  private viewPly: number | null = null;
  private busyChoosing = false;
  private readonly statusListeners = new Set<(s: Status) => void>();
  private readonly changeListeners = new Set<() => void>();
  private lastThinking = '';
  /** Bumped by each new game: a new game started while another is being set up wins. */
  private generation = 0;
  private settingUp = 0;
  /** The analysis board: the person moves both sides, the engine plays nothing. */
  private analysisMode = false;
  /** A review's notes on the moves, kept for the moves they were made for. */
  private annotations: { moves: string[]; notes: MoveNote[] } | null = null;

  constructor(
    readonly rules: Rules,
    readonly engine: EngineClient,
    readonly board: BoardView,
    readonly clocks: Clocks,
    readonly moveList: MoveList,
    private readonly chooserHost: HTMLElement,
    settings: GameSettings,
  ) {
    this.settings = settings;
    engine.onInfo(line => this.onInfo(line));
  }

  onStatus(fn: (s: Status) => void): void {
    this.statusListeners.add(fn);
  }

  /** Called after every change of the game (a move, a take-back, a new game). */
  onChange(fn: () => void): void {
    this.changeListeners.add(fn);
  }

  variants(): VariantInfo[] {
    return this.rules.variants();
  }

  /** A new game with these settings, from the variant's start or from `fen`. Throws (and
   * changes nothing) if the FEN is refused. */
  async newGame(
    settings: GameSettings,
    fen?: string,
    moves: string[] = [],
    mode?: 'play' | 'analysis',
  ): Promise<void> {
    const info = this.rules.variants().find(v => v.name === settings.variant);
    if (!info) throw new Error(`unknown game '${settings.variant}'`);
    // Build the new game completely before anything is replaced: a refused FEN or move
    // leaves the game being played as it was.
    const game = fen ? this.rules.newGame(info.name, fen) : this.rules.newGame(info.name);
    const startFen = game.fen();
    const facts: MoveFacts[] = [];
    try {
      for (const mv of moves) facts.push(game.play(mv));
    } catch (e) {
      game.free?.();
      throw e;
    }
    this.token++;
    const generation = ++this.generation;
    this.engine.stop();
    this.thinking = false;
    if (mode) this.analysisMode = mode === 'analysis';
    this.game?.free?.();
    this.settings = settings;
    this.variant = info;
    this.game = game;
    this.startFen = startFen;
    this.otherEnd = null;
    this.viewPly = null;
    const tc = settings.timing.kind === 'clock' ? settings.timing.clock : null;
    this.clocks.reset(tc);
    this.startClocks = this.clocks.snapshot();
    this.plies = facts.map(f => ({ facts: f, clocks: this.startClocks }));
    this.board.setVariant(info, settings.side);
    const fenFields = startFen.split(/\s+/);
    this.moveList.reset(fenFields[1] === 'b' ? 'black' : 'white', parseInt(fenFields[fenFields.length - 1], 10));
    this.settingUp++;
    try {
      await this.engine.newGame(info.name);
    } finally {
      this.settingUp--;
    }
    // a newer game was set up meanwhile (Start pressed, then a FEN set at once): it goes on
    if (generation !== this.generation) return;
    await this.applyLevel();
    this.refresh();
    this.nextTurn();
  }

  /** Whether a new game is still being set up with the engine. */
  get loading(): boolean {
    return this.settingUp > 0;
  }

  /** The person's side. */
  get humanSide(): Color {
    return this.settings.side;
  }

  isOver(): boolean {
    return !!this.otherEnd || !!this.game.outcome();
  }

  outcome(): Outcome | null {
    return this.game.outcome();
  }

  /** How the game ended, in any way. */
  ending(): { result: string; text: string } | null {
    return this.game.outcome() ?? this.otherEnd;
  }

  get isThinking(): boolean {
    return this.thinking;
  }

  /** The moves played (UCI). */
  moves(): string[] {
    return this.plies.map(p => p.facts.uci);
  }

  /** Whether the page is the analysis board (the person moves both sides). */
  get inAnalysis(): boolean {
    return this.analysisMode;
  }

  /** Switches between playing the engine and the analysis board. Back to play, the game
   * goes on from its last position (the engine moves if it is its turn). */
  setAnalysis(on: boolean): void {
    if (on === this.analysisMode) return;
    this.analysisMode = on;
    this.token++;
    if (this.thinking) this.engine.stop();
    this.thinking = false;
    this.clocks.stop();
    if (!on) this.viewPly = null;
    this.refresh();
    if (!on) this.nextTurn();
  }

  /** A review's notes for these moves (shown beside them while the game has them). */
  setAnnotations(a: { moves: string[]; notes: MoveNote[] } | null): void {
    this.annotations = a;
    this.refresh();
  }

  /** The ply shown (-1: the start position). */
  get shownPly(): number {
    return this.viewPly ?? this.plies.length - 1;
  }

  /** The game from its start to the position shown, as a scratch game (free it). */
  private gameAt(ply: number): Game {
    const scratch = this.rules.newGame(this.variant.name, this.startFen);
    try {
      for (let i = 0; i <= ply; i++) scratch.play(this.plies[i].facts.uci);
    } catch (e) {
      scratch.free?.();
      throw e;
    }
    return scratch;
  }

  /** Drops the moves after the position shown (the analysis board goes on from it). */
  private cutToShown(): void {
    if (this.viewPly === null) return;
    while (this.plies.length > this.viewPly + 1) {
      this.game.undo();
      this.plies.pop();
    }
    this.viewPly = null;
  }

  /** Plays moves (UCI) from the position shown on the analysis board (a line's moves). */
  playLine(moves: string[]): void {
    if (!this.analysisMode) return;
    this.cutToShown();
    for (const uci of moves) {
      try {
        this.plies.push({ facts: this.game.play(uci), clocks: this.clocks.snapshot() });
      } catch (e) {
        this.status({ text: messageOf(e), kind: 'error' });
        break;
      }
    }
    this.refresh();
  }

  /** Shows the game `moves` from `startFen` on the analysis board at `ply` (a reviewed
   * game brought back after a look at other moves). */
  async showGame(startFen: string, moves: string[], ply: number): Promise<void> {
    const same = startFen === this.startFen && moves.length === this.plies.length && moves.every((m, i) => this.plies[i].facts.uci === m);
    if (!same) await this.newGame(this.settings, startFen, moves, 'analysis');
    this.view(ply);
  }

  /** The person made a gesture on the board. */
  async gesture(g: Gesture): Promise<void> {
    if (this.busyChoosing) return;
    if (this.analysisMode) {
      await this.analysisGesture(g);
      return;
    }
    const live = this.viewPly === null && !this.isOver() && !this.thinking && this.game.sideToMove() === this.humanSide;
    if (!live) {
      this.refresh();
      return;
    }
    const legal = this.game.legalMoves();
    const matches = legal.filter(m =>
      g.drop !== undefined ? m.drop === g.drop && m.to === g.to : m.from === g.from && m.to === g.to,
    );
    if (matches.length === 0) {
      // not a legal move: nothing is sent, the piece goes back
      this.refresh();
      return;
    }
    let chosen: MoveFacts | null = matches[0];
    if (matches.length > 1) {
      this.busyChoosing = true;
      try {
        chosen = await this.ask(matches);
      } finally {
        this.busyChoosing = false;
      }
    }
    if (!chosen) {
      this.refresh();
      return;
    }
    this.playHuman(chosen.uci);
  }

  /** A gesture on the analysis board: a move of the side to move in the position shown. */
  private async analysisGesture(g: Gesture): Promise<void> {
    const shown = this.gameAt(this.shownPly);
    let legal: MoveFacts[];
    try {
      legal = shown.outcome() ? [] : shown.legalMoves();
    } finally {
      shown.free?.();
    }
    const matches = legal.filter(m =>
      g.drop !== undefined ? m.drop === g.drop && m.to === g.to : m.from === g.from && m.to === g.to,
    );
    let chosen: MoveFacts | null = matches[0] ?? null;
    if (matches.length > 1) {
      this.busyChoosing = true;
      try {
        chosen = await this.ask(matches, this.shownPly);
      } finally {
        this.busyChoosing = false;
      }
    }
    if (!chosen) {
      this.refresh();
      return;
    }
    this.playLine([chosen.uci]);
  }

  /** Plays a legal move for the person (from the board, or a test). */
  playHuman(uci: string): void {
    const side = this.game.sideToMove();
    let facts: MoveFacts;
    try {
      facts = this.game.play(uci);
    } catch (e) {
      this.status({ text: messageOf(e), kind: 'error' });
      this.refresh();
      return;
    }
    this.afterMove(side, facts);
  }

  /** Takes back the person's last move (and the engine's reply to it); on the analysis
   * board, the last move. */
  takeBack(): void {
    if (!this.canTakeBack()) return;
    if (this.analysisMode) {
      this.viewPly = null;
      this.game.undo();
      this.plies.pop();
      this.refresh();
      return;
    }
    this.token++;
    if (this.thinking) this.engine.stop();
    this.thinking = false;
    this.otherEnd = null;
    this.viewPly = null;
    // undo until it is the person's turn again, at least one move
    let undone = 0;
    while (this.plies.length > 0 && (undone === 0 || this.game.sideToMove() !== this.humanSide)) {
      this.game.undo();
      this.plies.pop();
      undone++;
    }
    this.clocks.stop();
    this.clocks.set(this.plies.length ? this.plies[this.plies.length - 1].clocks : this.startClocks);
    this.refresh();
    this.nextTurn();
  }

  /** Whether the person has a move to take back. */
  canTakeBack(): boolean {
    if (this.analysisMode) return this.plies.length > 0;
    const first: Color = this.startFen.split(/\s+/)[1] === 'b' ? 'black' : 'white';
    const firstHuman = first === this.humanSide ? 0 : 1;
    return this.plies.length > firstHuman;
  }

  /** The person gives up. */
  resign(): void {
    if (this.isOver()) return;
    this.token++;
    if (this.thinking) this.engine.stop();
    this.thinking = false;
    const loser = this.humanSide;
    this.otherEnd = { result: loser === 'white' ? '0-1' : '1-0', text: `${sideName(loser)} resigns` };
    this.clocks.stop();
    this.refresh();
  }

  flip(): void {
    this.board.flip();
    this.refresh();
  }

  /** Shows the position after `ply` moves (-1: the start) without changing the game. */
  view(ply: number): void {
    const last = this.plies.length - 1;
    this.viewPly = ply >= last ? null : Math.max(-1, ply);
    this.refresh();
  }

  /** Steps through the game shown: -1 back, +1 forward, 'start' / 'end'. */
  step(delta: number | 'start' | 'end'): void {
    const last = this.plies.length - 1;
    const cur = this.viewPly ?? last;
    const next = delta === 'start' ? -1 : delta === 'end' ? last : cur + delta;
    this.view(Math.min(last, Math.max(-1, next)));
  }

  fen(): string {
    return this.game.fen();
  }

  pgn(): string {
    if (typeof this.game.pgn !== 'function') return '';
    return this.game.pgn(this.pgnHeaders());
  }

  /** The PGN's tag pairs for this game. */
  pgnHeaders(): Record<string, string> {
    const end = this.ending();
    const levelText =
      this.settings.level.kind === 'elo' ? `Cannonade (Elo ${this.settings.level.elo})` : `Cannonade (level ${this.settings.level.skill})`;
    const t = this.settings.timing;
    const headers: Record<string, string> = {
      Event: 'Casual game',
      Site: 'Cannonade in the browser',
      Date: new Date().toISOString().slice(0, 10).replace(/-/g, '.'),
      White: this.humanSide === 'white' ? 'Player' : levelText,
      Black: this.humanSide === 'black' ? 'Player' : levelText,
      TimeControl: t.kind === 'clock' ? `${Math.round(t.clock.minutes * 60)}+${t.clock.increment}` : `-`,
    };
    if (end) headers.Result = end.result;
    if (this.otherEnd) headers.Termination = this.otherEnd.text;
    return headers;
  }

  /** Reads a PGN text and goes on from its first game's last position. Throws the reader's
   * message (and keeps the game being played) if it cannot be read. */
  async loadPgn(text: string): Promise<void> {
    // a game without a Variant tag is chess, as PGN has it; failing that (a bare movetext
    // pasted while another game is played), it is tried as the game being played
    let games;
    try {
      games = this.rules.readPgn(text);
    } catch (e) {
      if (this.settings.variant === 'chess') throw e;
      try {
        games = this.rules.readPgn(text, this.settings.variant);
      } catch {
        throw e;
      }
    }
    if (!games.length) throw new Error('no game found in the PGN text');
    const g = games[0];
    // a finished game is looked at (and reviewed) on the analysis board, not played on
    const finished = !!g.result && g.result !== '*';
    await this.newGame(
      { ...this.settings, variant: g.variant },
      g.startFen ?? undefined,
      g.moves,
      finished ? 'analysis' : undefined,
    );
    if (finished && !this.game.outcome()) this.otherEnd = { result: g.result!, text: g.headers.Termination ?? 'as the PGN says' };
    this.refresh();
  }

  /** Sets up a position of the current game (or `variant`). Throws the rules' message (and
   * keeps the game being played) if the FEN is refused. */
  async loadFen(fen: string, variant = this.settings.variant): Promise<void> {
    const clean = fen.trim();
    if (!clean) throw new Error('the FEN is empty');
    await this.newGame({ ...this.settings, variant }, clean);
  }

  /** The position shown now (the live one, or one looked back at). */
  shownFen(): string {
    return this.shownPosition().fen;
  }

  /** The options of the level chosen (sent before each of the engine's moves). */
  private levelOptions(): Record<string, string | number | boolean> {
    const level = this.settings.level;
    return level.kind === 'elo'
      ? { UCI_LimitStrength: true, UCI_Elo: level.elo }
      : { UCI_LimitStrength: false, 'Skill Level': level.skill };
  }

  private async applyLevel(): Promise<void> {
    const level = this.settings.level;
    if (level.kind === 'elo') {
      this.engine.setOption('UCI_LimitStrength', true);
      this.engine.setOption('UCI_Elo', level.elo);
    } else {
      this.engine.setOption('UCI_LimitStrength', false);
      this.engine.setOption('Skill Level', level.skill);
    }
  }

  private afterMove(side: Color, facts: MoveFacts): void {
    if (!this.analysisMode) this.clocks.moved(side);
    this.plies.push({ facts, clocks: this.clocks.snapshot() });
    this.viewPly = null;
    this.refresh();
    this.nextTurn();
  }

  /** Starts the clock of the side to move and, on the engine's turn, its search. */
  private nextTurn(): void {
    if (this.analysisMode) {
      this.clocks.stop();
      return;
    }
    if (this.isOver()) {
      this.clocks.stop();
      this.refresh();
      return;
    }
    const toMove = this.game.sideToMove();
    if (this.settings.timing.kind === 'clock') this.clocks.start(toMove);
    if (toMove !== this.humanSide) void this.engineMove();
  }

  private async engineMove(): Promise<void> {
    const token = ++this.token;
    this.thinking = true;
    this.lastThinking = '';
    this.refresh();
    const t = this.settings.timing;
    const limits: SearchLimits =
      t.kind === 'clock'
        ? {
            wtime: this.clocks.timeLeft('white'),
            btime: this.clocks.timeLeft('black'),
            winc: this.clocks.incrementMs,
            binc: this.clocks.incrementMs,
          }
        : { movetime: Math.max(10, Math.round(t.seconds * 1000)) };
    const result = await this.engine.go(this.startFen, this.moves(), limits, {
      options: { ...this.levelOptions(), MultiPV: 1 },
    });
    if (token !== this.token) return; // the game changed meanwhile: this answer is stale
    this.thinking = false;
    if (!result.bestmove) {
      this.status({ text: 'The engine found no move.', kind: 'error' });
      this.refresh();
      return;
    }
    const side = this.game.sideToMove();
    let facts: MoveFacts;
    try {
      facts = this.game.play(result.bestmove);
    } catch (e) {
      this.status({ text: `The engine's move ${result.bestmove} was refused: ${messageOf(e)}`, kind: 'error' });
      this.refresh();
      return;
    }
    this.afterMove(side, facts);
  }

  /** A flag fell. */
  flagged(side: Color): void {
    if (this.isOver()) return;
    this.token++;
    if (this.thinking) this.engine.stop();
    this.thinking = false;
    this.otherEnd = { result: side === 'white' ? '0-1' : '1-0', text: `${sideName(side)}'s time is up` };
    this.refresh();
  }

  private async ask(matches: MoveFacts[], ply?: number): Promise<MoveFacts | null> {
    const choices: Choice[] = matches.map(m => ({ label: m.san, piece: this.pieceAfter(m, ply) }));
    // the question in a player's words, from what the rules say of the moves
    const pieces = new Set(choices.map(c => c.piece));
    const title = matches.every(m => m.promotionChoice)
      ? 'Promote?'
      : pieces.size === choices.length && !pieces.has(null)
        ? 'Which piece?'
        : 'Which move?';
    const i = await choose(this.chooserHost, themeFor(this.variant.name).className, choices, title);
    return i === null ? null : matches[i];
  }

  /** The piece a move leaves on its destination, asked of the rules (play, look, undo). */
  private pieceAfter(m: MoveFacts, ply?: number): string | null {
    let g: Game | null = null;
    try {
      g = ply === undefined ? this.game : this.gameAt(ply);
      g.play(m.uci);
      const placement = readPlacement(g.fen(), this.variant.files, this.variant.ranks);
      g.undo();
      return placement.pieces.get(m.to) ?? null;
    } catch {
      return null;
    } finally {
      if (g && g !== this.game) g.free?.();
    }
  }

  private onInfo(line: string): void {
    if (line.startsWith('info string error')) {
      // the engine's own words for what went wrong (a refused line, a worker started again)
      this.status({ text: `Engine: ${line.slice('info string '.length)}`, kind: 'error' });
      return;
    }
    if (!this.thinking || !line.startsWith('info ') || !/ score /.test(line)) return;
    const depth = /\bdepth (\d+)/.exec(line)?.[1];
    const cp = /\bscore cp (-?\d+)/.exec(line)?.[1];
    const mate = /\bscore mate (-?\d+)/.exec(line)?.[1];
    const score = mate !== undefined ? `mate ${mate}` : cp !== undefined ? (Number(cp) / 100).toFixed(2) : '';
    this.lastThinking = `depth ${depth ?? '?'}${score ? `, ${score}` : ''}`;
    this.status({ text: `Cannonade is thinking… (${this.lastThinking})`, kind: 'thinking' });
  }

  /** Shows everything as it stands now. */
  refresh(): void {
    const g = this.game;
    const end = this.ending();
    const live = this.viewPly === null;
    const shownPly = live ? this.plies.length - 1 : this.viewPly!;
    // the position shown: the live game, or a scratch game up to the move looked at
    const shown = live ? g : this.gameAt(shownPly);
    try {
      const fen = shown.fen();
      const lastFacts = shownPly >= 0 ? this.plies[shownPly].facts : null;
      const turn = shown.sideToMove();
      const canMove = this.analysisMode
        ? !shown.outcome()
        : live && !end && !this.thinking && turn === this.humanSide;
      this.board.show({
        fen,
        turn,
        movable: canMove ? turn : null,
        moves: canMove ? shown.legalMoves() : [],
        lastMove: lastFacts,
        check: shown.inCheck(),
        lines: themeFor(this.variant.name).cannonLines
          ? cannonLines(this.rules, this.variant.name, fen, this.variant.files, this.variant.ranks)
          : [],
      });
      const a = this.annotations;
      let common = 0;
      if (a) while (common < a.moves.length && common < this.plies.length && a.moves[common] === this.plies[common].facts.uci) common++;
      this.moveList.set(
        this.plies.map((p, i) => ({ san: p.facts.san, uci: p.facts.uci, note: a && i < common ? a.notes[i] : undefined })),
        shownPly,
      );
      this.moveList.setOutcome(g.outcome(), this.otherEnd);
      const shownEnd = shown.outcome();
      if (this.analysisMode)
        this.status({
          text: shownEnd
            ? `Analysis board — ${shownEnd.result} ${shownEnd.text}`
            : `Analysis board — ${sideName(turn)} to move${shown.inCheck() ? ', in check' : ''}`,
          kind: 'review',
        });
      else if (end) this.status({ text: `${end.result} — ${end.text}`, kind: 'over' });
      else if (!live) this.status({ text: 'Looking back: the board follows the move list.', kind: 'review' });
      else if (this.thinking)
        this.status({ text: `Cannonade is thinking…${this.lastThinking ? ` (${this.lastThinking})` : ''}`, kind: 'thinking' });
      else if (turn === this.humanSide)
        this.status({ text: `Your move (${sideName(turn)})${g.inCheck() ? ' — check' : ''}`, kind: 'turn' });
    } finally {
      if (shown !== g) shown.free?.();
    }
    for (const fn of this.changeListeners) fn();
  }

  /** The position shown, for the analysis board: its FEN, whose move, how it ended. */
  shownPosition(): { fen: string; sideToMove: Color; over: string | null } {
    const shown = this.viewPly === null ? this.game : this.gameAt(this.viewPly);
    try {
      const end = shown.outcome();
      return { fen: shown.fen(), sideToMove: shown.sideToMove(), over: end ? `${end.result} ${end.text}` : null };
    } finally {
      if (shown !== this.game) shown.free?.();
    }
  }

  private status(s: Status): void {
    for (const fn of this.statusListeners) fn(s);
  }

}
