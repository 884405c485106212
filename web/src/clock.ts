// The clocks: each side's time, the one whose turn it is running, an increment added when a
// side completes a move, and a flag when a side's time is up. Shown as two elements.

import type { Color } from './rules';

export interface TimeControl {
  /** Minutes each side starts with. */
  minutes: number;
  /** Seconds added after each of a side's moves. */
  increment: number;
}

export class Clocks {
  private remaining: Record<Color, number> = { white: 0, black: 0 };
  private running: Color | null = null;
  /** performance.now() when the running clock last started or was last read. */
  private since = 0;
  private timer: number | null = null;
  private flagged = false;
  incrementMs = 0;

  constructor(
    private readonly els: Record<Color, HTMLElement>,
    private readonly onFlag: (side: Color) => void,
  ) {}

  reset(tc: TimeControl | null): void {
    this.stop();
    this.flagged = false;
    const ms = tc ? Math.round(tc.minutes * 60_000) : 0;
    this.remaining = { white: ms, black: ms };
    this.incrementMs = tc ? Math.round(tc.increment * 1000) : 0;
    for (const side of ['white', 'black'] as const) {
      this.els[side].hidden = !tc;
      this.els[side].classList.remove('running', 'flagged', 'low');
    }
    this.render();
  }

  /** The time left on a side's clock now, in milliseconds. */
  timeLeft(side: Color): number {
    const spent = this.running === side ? performance.now() - this.since : 0;
    return Math.max(0, this.remaining[side] - spent);
  }

  /** Runs `side`'s clock (the other stops). */
  start(side: Color): void {
    if (this.flagged) return;
    this.settle();
    this.running = side;
    this.since = performance.now();
    if (this.timer === null) this.timer = window.setInterval(() => this.tick(), 100);
    this.render();
  }

  /** A side completed a move: its clock stops and gets the increment. */
  moved(side: Color): void {
    this.settle();
    if (this.running === side) this.running = null;
    this.remaining[side] += this.incrementMs;
    this.render();
  }

  /** Stops both clocks (game over, take-back, new game). */
  stop(): void {
    this.settle();
    this.running = null;
    if (this.timer !== null) window.clearInterval(this.timer);
    this.timer = null;
    this.render();
  }

  /** Sets a side's time (a take-back gives the times of the earlier position back). */
  set(times: Record<Color, number>): void {
    this.settle();
    this.remaining = { ...times };
    this.render();
  }

  snapshot(): Record<Color, number> {
    return { white: this.timeLeft('white'), black: this.timeLeft('black') };
  }

  private settle(): void {
    if (this.running) {
      const now = performance.now();
      this.remaining[this.running] = Math.max(0, this.remaining[this.running] - (now - this.since));
      this.since = now;
    }
  }

  private tick(): void {
    if (!this.running) return;
    this.settle();
    if (this.remaining[this.running] <= 0 && !this.flagged) {
      const side = this.running;
      this.flagged = true;
      this.stop();
      this.els[side].classList.add('flagged');
      this.onFlag(side);
      return;
    }
    this.render();
  }

  private render(): void {
    for (const side of ['white', 'black'] as const) {
      const el = this.els[side];
      const ms = this.timeLeft(side);
      el.textContent = format(ms);
      el.classList.toggle('running', this.running === side);
      el.classList.toggle('low', ms < 10_000 && this.remaining[side] > 0);
    }
  }
}

/** `m:ss`, with tenths under ten seconds, `h:mm:ss` from an hour. */
export function format(ms: number): string {
  const total = Math.max(0, ms);
  if (total < 10_000) return `0:0${(Math.floor(total / 100) / 10).toFixed(1)}`;
  const s = Math.floor(total / 1000);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = String(s % 60).padStart(2, '0');
  return h ? `${h}:${String(m).padStart(2, '0')}:${sec}` : `${m}:${sec}`;
}
