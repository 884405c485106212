// The engine client: the engine of cannonade.js (a Web Worker speaking UCI) behind a small
// promise-based interface. It speaks only UCI, so the analysis view can reuse it (MultiPV
// lines arrive through `onInfo`).

import type { RawEngine } from './rules';

/** An option the engine announced (`option name X type spin default D min A max B`). */
export interface EngineOptionInfo {
  name: string;
  type: string;
  default?: string;
  min?: number;
  max?: number;
  vars: string[];
}

/** What `go` is told: a clock, a time per move, a depth or nodes, or infinite. */
export interface SearchLimits {
  wtime?: number;
  btime?: number;
  winc?: number;
  binc?: number;
  movetime?: number;
  depth?: number;
  nodes?: number;
  infinite?: boolean;
}

export interface SearchResult {
  /** The move in UCI notation, or null where the engine had none (`bestmove (none)`). */
  bestmove: string | null;
  ponder: string | null;
  /** The last `info` line with a score, if any. */
  lastInfo: string | null;
  /** False when the search was overtaken (stopped for a newer one). */
  current: boolean;
}

interface Pending {
  id: number;
  resolve: (r: SearchResult) => void;
  lastInfo: string | null;
  onInfo?: (line: string) => void;
}

/** What a search is started with besides its limits. */
export interface GoOptions {
  /** Options the search needs (`MultiPV`, the level): sent before it where they differ from
   * what the engine was last told. */
  options?: Record<string, string | number | boolean>;
  /** Every `info` line of this search (and of no other). */
  onInfo?: (line: string) => void;
}

export class EngineClient {
  readonly options = new Map<string, EngineOptionInfo>();
  /** Every line sent, in order (the browser test reads it; it also helps a bug report). */
  readonly sent: string[] = [];
  private readonly infoListeners = new Set<(line: string) => void>();
  private readonly waiting: { match: (line: string) => boolean; resolve: (line: string) => void }[] = [];
  private readonly searches: Pending[] = [];
  private nextId = 1;
  private latestId = 0;
  /** What each option was last set to (so that a search sends only what changes). */
  private readonly optionValues = new Map<string, string>();

  private constructor(private readonly raw: RawEngine) {
    raw.addMessageListener(line => this.onLine(String(line)));
  }

  /** Starts the engine (cannonade.js must be on the page) and waits for `uciok`. */
  static async start(): Promise<EngineClient> {
    if (!window.Cannonade) throw new Error('cannonade.js is not loaded: Cannonade() is missing');
    const raw = await window.Cannonade();
    const client = new EngineClient(raw);
    const ok = client.expect(l => l === 'uciok');
    client.send('uci');
    await ok;
    await client.ready();
    return client;
  }

  send(line: string): void {
    this.sent.push(line);
    this.raw.postMessage(line);
  }

  onInfo(fn: (line: string) => void): () => void {
    this.infoListeners.add(fn);
    return () => this.infoListeners.delete(fn);
  }

  /** Waits until the engine has handled everything sent so far. */
  async ready(): Promise<void> {
    const ok = this.expect(l => l === 'readyok');
    this.send('isready');
    await ok;
  }

  setOption(name: string, value: string | number | boolean): void {
    this.optionValues.set(name, String(value));
    this.send(`setoption name ${name} value ${value}`);
  }

  /** Sets an option only where it differs from what the engine was last told. */
  ensureOption(name: string, value: string | number | boolean): void {
    if (this.optionValues.get(name) !== String(value)) this.setOption(name, value);
  }

  /** Selects a game and starts a new one (clears the table, reseeds the levels). */
  async newGame(variant: string): Promise<void> {
    this.stop();
    this.setOption('UCI_Variant', variant);
    this.send('ucinewgame');
    await this.ready();
  }

  /** Searches the position `startFen` + `moves`; resolves with the best move. A newer search
   * or `stop` resolves it early (stop) or marks it overtaken (`current: false`). */
  go(startFen: string, moves: string[], limits: SearchLimits, how: GoOptions = {}): Promise<SearchResult> {
    this.stop();
    // a setoption while a search runs ends it first (the engine's own order), so these
    // reach the new search only
    for (const [name, value] of Object.entries(how.options ?? {})) this.ensureOption(name, value);
    const id = this.nextId++;
    this.latestId = id;
    const position = `position fen ${startFen}` + (moves.length ? ` moves ${moves.join(' ')}` : '');
    const parts = ['go'];
    for (const key of ['wtime', 'btime', 'winc', 'binc', 'movetime', 'depth', 'nodes'] as const) {
      const v = limits[key];
      if (v !== undefined) parts.push(key, String(Math.max(0, Math.round(v))));
    }
    if (limits.infinite) parts.push('infinite');
    return new Promise(resolve => {
      this.searches.push({ id, resolve, lastInfo: null, onInfo: how.onInfo });
      this.send(position);
      this.send(parts.join(' '));
    });
  }

  /** Stops the running search, if any (its promise resolves with what it found). */
  stop(): void {
    if (this.searches.length) this.send('stop');
  }

  /** Whether a search is running. */
  get busy(): boolean {
    return this.searches.length > 0;
  }

  terminate(): void {
    this.raw.terminate();
  }

  private expect(match: (line: string) => boolean): Promise<string> {
    return new Promise(resolve => this.waiting.push({ match, resolve }));
  }

  private onLine(line: string): void {
    line = line.trim();
    if (line.startsWith('option name ')) this.readOption(line);
    const i = this.waiting.findIndex(w => w.match(line));
    if (i >= 0) {
      const [w] = this.waiting.splice(i, 1);
      w.resolve(line);
    }
    if (line.startsWith('bestmove')) {
      const search = this.searches.shift();
      if (search) {
        const words = line.split(/\s+/);
        const best = words[1] && words[1] !== '(none)' && words[1] !== '0000' ? words[1] : null;
        const p = words.indexOf('ponder');
        search.resolve({
          bestmove: best,
          ponder: p >= 0 ? (words[p + 1] ?? null) : null,
          lastInfo: search.lastInfo,
          current: search.id === this.latestId,
        });
      }
      return;
    }
    if (line.startsWith('info')) {
      const search = this.searches[0];
      if (search && / score /.test(line)) search.lastInfo = line;
      search?.onInfo?.(line);
    }
    for (const fn of this.infoListeners) fn(line);
  }

  private readOption(line: string): void {
    // option name <name words> type <t> [default <d>] [min <a>] [max <b>] [var <v>]...
    const m = /^option name (.+?) type (\S+)(.*)$/.exec(line);
    if (!m) return;
    const [, name, type, rest] = m;
    const info: EngineOptionInfo = { name, type, vars: [] };
    const words = rest.trim().split(/\s+/);
    for (let i = 0; i < words.length; i++) {
      const w = words[i];
      const next = words[i + 1];
      if (w === 'default') info.default = next ?? '';
      else if (w === 'min') info.min = Number(next);
      else if (w === 'max') info.max = Number(next);
      else if (w === 'var' && next !== undefined) info.vars.push(next);
      else continue;
      i++;
    }
    this.options.set(name, info);
  }
}
