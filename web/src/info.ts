// Reading the engine's UCI `info` lines: depth, which line (MultiPV), score, win chances
// (`wdl`, with UCI_ShowWDL), bound, nodes, speed and the principal variation. Only reading:
// what a score means for a side is the engine's, what a move is called is the rules'.

export type Score = { cp: number } | { mate: number };

export interface InfoLine {
  depth: number;
  seldepth?: number;
  multipv: number;
  /** The side to move's view, as UCI prints it. */
  score: Score;
  /** Win, draw, loss per mille, the side to move's view (UCI_ShowWDL). */
  wdl?: [number, number, number];
  /** The score is only a bound (a search that failed high or low): not a line to show. */
  bound: boolean;
  nodes?: number;
  nps?: number;
  time?: number;
  pv: string[];
}

/** Reads an `info ... score ...` line; null for any other line. */
export function readInfo(line: string): InfoLine | null {
  const w = line.trim().split(/\s+/);
  if (w[0] !== 'info') return null;
  const out: Partial<InfoLine> & { pv: string[]; bound: boolean; multipv: number } = { pv: [], bound: false, multipv: 1 };
  for (let i = 1; i < w.length; i++) {
    const k = w[i];
    const num = (j: number) => Number(w[j]);
    switch (k) {
      case 'depth':
        out.depth = num(++i);
        break;
      case 'seldepth':
        out.seldepth = num(++i);
        break;
      case 'multipv':
        out.multipv = num(++i);
        break;
      case 'score': {
        const kind = w[++i];
        const v = num(++i);
        if (kind === 'cp') out.score = { cp: v };
        else if (kind === 'mate') out.score = { mate: v };
        break;
      }
      case 'wdl':
        out.wdl = [num(i + 1), num(i + 2), num(i + 3)];
        i += 3;
        break;
      case 'lowerbound':
      case 'upperbound':
        out.bound = true;
        break;
      case 'nodes':
        out.nodes = num(++i);
        break;
      case 'nps':
        out.nps = num(++i);
        break;
      case 'time':
        out.time = num(++i);
        break;
      case 'pv':
        out.pv = w.slice(i + 1);
        i = w.length;
        break;
      case 'string':
        return null;
      default:
        break;
    }
  }
  if (out.depth === undefined || !out.score) return null;
  return out as InfoLine;
}

/** A score turned to White's view (UCI prints the side to move's). */
export function whiteScore(s: Score, sideToMove: 'white' | 'black'): Score {
  if (sideToMove === 'white') return s;
  return 'cp' in s ? { cp: -s.cp } : { mate: -s.mate };
}

/** A score for people, White's view: `+0.31`, `−1.20`, `#3`, `#-2`. */
export function scoreText(s: Score): string {
  if ('mate' in s) return `#${s.mate}`;
  const v = s.cp / 100;
  return (v > 0 ? '+' : v < 0 ? '−' : '') + Math.abs(v).toFixed(2);
}

/** Win chances turned to White's view: [white wins, draw, black wins] per mille. */
export function whiteWdl(wdl: [number, number, number], sideToMove: 'white' | 'black'): [number, number, number] {
  return sideToMove === 'white' ? wdl : [wdl[2], wdl[1], wdl[0]];
}
