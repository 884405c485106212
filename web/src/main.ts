// The play page: wires the setup form, the board, the clocks, the move list and the PGN/FEN
// panel to one game controller, over the engine (a worker) and the rules API of cannonade.js.

import { Analyser, EvalBar } from './analysis';
import { BoardView } from './board';
import { Clocks } from './clock';
import { EngineClient } from './engine';
import { GameController, type GameSettings, type Level, type Timing } from './game';
import { MoveList } from './movelist';
import { PgnFenPanel } from './pgnfen';
import { reviewGame, ReviewPanel, type ReviewGame } from './review';
import type { ReviewResult } from './rules';
import { loadRules, messageOf, type Color } from './rules';
import { themeFor } from './theme';

const $ = <T extends HTMLElement = HTMLElement>(sel: string) => document.querySelector(sel) as T;

const STORAGE_KEY = 'cannonade.settings';

function readForm(form: HTMLFormElement): GameSettings {
  const data = new FormData(form);
  const sideWanted = String(data.get('side') ?? 'white');
  const side: Color = sideWanted === 'random' ? (Math.random() < 0.5 ? 'white' : 'black') : (sideWanted as Color);
  const level: Level =
    data.get('level-kind') === 'elo'
      ? { kind: 'elo', elo: Number($<HTMLInputElement>('#elo').value) }
      : { kind: 'skill', skill: Number($<HTMLInputElement>('#skill').value) };
  const timing: Timing =
    data.get('timing') === 'movetime'
      ? { kind: 'movetime', seconds: Math.max(0.05, Number($<HTMLInputElement>('#movetime').value) || 1) }
      : {
          kind: 'clock',
          clock: {
            minutes: Math.max(0.05, Number($<HTMLInputElement>('#minutes').value) || 5),
            increment: Math.max(0, Number($<HTMLInputElement>('#increment').value) || 0),
          },
        };
  return { variant: $<HTMLSelectElement>('#variant').value, side, level, timing };
}

function syncFormParts(form: HTMLFormElement): void {
  const data = new FormData(form);
  ($('.level-skill') as HTMLElement).hidden = data.get('level-kind') === 'elo';
  ($('.level-elo') as HTMLElement).hidden = data.get('level-kind') !== 'elo';
  ($('.timing-clock') as HTMLElement).hidden = data.get('timing') === 'movetime';
  ($('.timing-movetime') as HTMLElement).hidden = data.get('timing') !== 'movetime';
  $('#skill-out').textContent = $<HTMLInputElement>('#skill').value;
}

function saveForm(form: HTMLFormElement): void {
  const data = Object.fromEntries(new FormData(form).entries());
  for (const id of ['skill', 'elo', 'minutes', 'increment', 'movetime', 'variant'])
    data[id] = ($(`#${id}`) as HTMLInputElement).value;
  try {
    localStorage.setItem(STORAGE_KEY, JSON.stringify(data));
  } catch {
    // storage may be off: the form simply starts from its defaults next time
  }
}

function restoreForm(form: HTMLFormElement, params: URLSearchParams): void {
  let saved: Record<string, string> = {};
  try {
    saved = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? '{}');
  } catch {
    saved = {};
  }
  // the address wins over what was saved: ?variant=cannonshogi&side=black&movetime=0.2
  for (const [k, v] of params) saved[k] = v;
  if (params.has('movetime')) saved.timing = 'movetime';
  if (params.has('minutes')) saved.timing = 'clock';
  if (params.has('skill')) saved['level-kind'] = 'skill';
  if (params.has('elo')) saved['level-kind'] = 'elo';
  for (const [k, v] of Object.entries(saved)) {
    const byId = document.getElementById(k) as HTMLInputElement | HTMLSelectElement | null;
    if (byId && 'value' in byId && byId.tagName !== 'FORM') {
      if (byId instanceof HTMLSelectElement && ![...byId.options].some(o => o.value === v)) continue;
      byId.value = v;
      continue;
    }
    const radio = form.querySelector(`input[name="${k}"][value="${CSS.escape(v)}"]`) as HTMLInputElement | null;
    if (radio) radio.checked = true;
  }
}

async function main(): Promise<void> {
  const status = $('#status');
  const say = (text: string, kind: string) => {
    status.textContent = text;
    status.dataset.kind = kind;
  };
  let rules;
  let engine: EngineClient;
  try {
    [rules, engine] = await Promise.all([loadRules(), EngineClient.start()]);
  } catch (e) {
    say(`The engine could not start: ${messageOf(e)}`, 'error');
    throw e;
  }

  const form = $<HTMLFormElement>('#setup');
  const variantSelect = $<HTMLSelectElement>('#variant');
  for (const v of rules.variants()) {
    const o = document.createElement('option');
    o.value = v.name;
    o.textContent = v.fullName;
    variantSelect.appendChild(o);
  }
  // the levels as the engine announces them
  const skill = engine.options.get('Skill Level');
  if (skill && skill.min !== undefined && skill.max !== undefined) {
    const input = $<HTMLInputElement>('#skill');
    input.min = String(skill.min);
    input.max = String(skill.max);
    input.value = skill.default ?? String(skill.max);
  }
  const elo = engine.options.get('UCI_Elo');
  if (elo && elo.min !== undefined && elo.max !== undefined) {
    const input = $<HTMLInputElement>('#elo');
    input.min = String(elo.min);
    input.max = String(elo.max);
    input.value = elo.default ?? input.value;
  }
  const params = new URLSearchParams(location.search);
  restoreForm(form, params);
  syncFormParts(form);
  form.addEventListener('input', () => syncFormParts(form));
  form.addEventListener('change', () => syncFormParts(form));

  // clocks: one element per side, put in the slot above or below the board
  const clockEls: Record<Color, HTMLElement> = {
    white: Object.assign(document.createElement('div'), { className: 'clock-face white', hidden: true }),
    black: Object.assign(document.createElement('div'), { className: 'clock-face black', hidden: true }),
  };
  let controller: GameController;
  const clocks = new Clocks(clockEls, side => controller.flagged(side));
  const board = new BoardView($('#board'), $('#pocket-top'), $('#pocket-bottom'), g => void controller.gesture(g));
  const moveList = new MoveList($('#moves'), ply => controller.view(ply));
  controller = new GameController(rules, engine, board, clocks, moveList, $('.board-area'), readForm(form));
  controller.onStatus(s => say(s.text, s.kind));

  const io = new PgnFenPanel($('#io'), {
    fen: () => controller.fen(),
    pgn: () => controller.pgn(),
    // another game: the review of the last one goes (a refused text keeps both)
    loadFen: async fen => {
      await controller.loadFen(fen);
      forgetReview();
    },
    loadPgn: async text => {
      await controller.loadPgn(text);
      forgetReview();
    },
    variantName: () => controller.variant.fullName,
  });

  const placeSides = () => {
    const bottom = board.orientation;
    const top: Color = bottom === 'white' ? 'black' : 'white';
    $('#clock-top').replaceChildren(clockEls[top]);
    $('#clock-bottom').replaceChildren(clockEls[bottom]);
    const timed = controller.settings.timing.kind === 'clock';
    $('#clock-top').hidden = !timed;
    $('#clock-bottom').hidden = !timed;
    const name = (c: Color) => (c === controller.humanSide ? 'You' : 'Cannonade') + ` (${c})`;
    $('#player-top').textContent = name(top);
    $('#player-bottom').textContent = name(bottom);
  };
  // ---- the analysis board and the review ----
  const skillMax = engine.options.get('Skill Level')?.max ?? 20;
  // analysis and review search at full strength, whatever level the games are played at
  const fullStrength = () => ({ UCI_LimitStrength: false, 'Skill Level': skillMax });
  const bar = new EvalBar($('#eval-bar'));
  const analyser = new Analyser(rules, engine, $('#analysis'), bar, moves => controller.playLine(moves), fullStrength);
  let reviewed: { game: ReviewGame; result: ReviewResult } | null = null;
  let reviewToken = 0;
  let reviewing = false;
  const reviewStatus = $('#review-status');
  const progress = $<HTMLProgressElement>('#review-progress');
  const sameGame = (g: ReviewGame) =>
    g.startFen === controller.startFen &&
    g.moves.length === controller.moves().length &&
    g.moves.every((m, i) => m === controller.moves()[i]);
  const reviewPanel = new ReviewPanel(
    $('#analysis'),
    ply => {
      if (reviewed) void controller.showGame(reviewed.game.startFen, reviewed.game.moves, ply);
    },
    () => `cannonade-${controller.variant.name}-review.pgn`,
  );
  const cancelReview = () => {
    if (!reviewing) return;
    reviewToken++;
    reviewing = false;
    engine.stop();
    progress.hidden = true;
    reviewStatus.textContent = 'Review stopped.';
  };
  /** Another game is on the board: the last review goes with its game. */
  const forgetReview = () => {
    cancelReview();
    reviewed = null;
    reviewPanel.set(null);
    reviewStatus.textContent = '';
    reviewStatus.classList.remove('error');
    controller.setAnnotations(null);
  };
  const runReview = async () => {
    const moves = controller.moves();
    if (!moves.length) return;
    if (!controller.inAnalysis) controller.setAnalysis(true);
    analyser.stop();
    const token = ++reviewToken;
    reviewing = true;
    const game: ReviewGame = {
      variant: controller.variant.name,
      startFen: controller.startFen,
      moves,
      standardStart: controller.startFen === controller.variant.startFen,
      headers: controller.pgnHeaders(),
    };
    const nodes = Number($<HTMLSelectElement>('#review-nodes').value) || 50000;
    progress.hidden = false;
    progress.value = 0;
    reviewStatus.textContent = `Searching ${moves.length + 1} positions…`;
    reviewStatus.classList.remove('error');
    updateButtons();
    try {
      const result = await reviewGame(
        rules,
        engine,
        game,
        nodes,
        fullStrength(),
        (done, all) => {
          if (token !== reviewToken) return;
          progress.value = done / all;
          reviewStatus.textContent = `Position ${done} of ${all}`;
        },
        () => token !== reviewToken,
      );
      if (!result || token !== reviewToken) return;
      reviewed = { game, result };
      controller.setAnnotations({ moves: game.moves, notes: result.moves });
      reviewPanel.set(result);
      const t = result.totals;
      reviewStatus.textContent =
        result.summary ??
        `Reviewed: White ${t.white.inaccuracies}/${t.white.mistakes}/${t.white.blunders}, Black ${t.black.inaccuracies}/${t.black.mistakes}/${t.black.blunders} (?!/?/??)`;
    } catch (e) {
      reviewStatus.textContent = `The review failed: ${messageOf(e)}`;
      reviewStatus.classList.add('error');
    } finally {
      if (token === reviewToken) {
        reviewing = false;
        progress.hidden = true;
        updateButtons();
      }
    }
  };
  const updateButtons = () => {
    const an = controller.inAnalysis;
    $<HTMLButtonElement>('#review').disabled = reviewing || controller.moves().length === 0 || !(an || controller.isOver());
    // while a review runs, its button stops it
    const run = $<HTMLButtonElement>('#review-run');
    run.disabled = !reviewing && controller.moves().length === 0;
    run.textContent = reviewing ? 'Stop the review' : 'Review the game';
    run.classList.toggle('running', reviewing);
    $<HTMLButtonElement>('#analyse').disabled = reviewing;
  };

  controller.onChange(() => {
    placeSides();
    io.update();
    $<HTMLButtonElement>('#takeback').disabled = !controller.canTakeBack();
    $<HTMLButtonElement>('#resign').disabled = controller.isOver() || controller.inAnalysis;
    const an = controller.inAnalysis;
    $('#analysis').hidden = !an;
    $('#app').classList.toggle('analysing', an);
    bar.show(an);
    bar.setOrientation(board.orientation);
    $('#mode').textContent = an ? 'Back to play' : 'Analysis board';
    updateButtons();
    if (an) {
      if (!reviewing) analyser.setPosition({ variant: controller.variant.name, ...controller.shownPosition() });
    } else {
      analyser.stop();
      cancelReview();
    }
    if (reviewed && sameGame(reviewed.game)) {
      reviewPanel.select(controller.shownPly);
      // not analysing: the bar shows the review's judgement of the position shown
      if (an && !analyser.isRunning) {
        const m = reviewed.result.moves[controller.shownPly];
        const c = m ? m.whiteChances : reviewed.result.start.whiteChances;
        bar.set(c.win + c.draw / 2, (m ? m.eval : reviewed.result.start.eval) ?? '');
      }
    }
    // Whitcher's Cannon numbers its ranks from 0 (its notation is XBoard's: T@e0): the board's
    // labels follow the move list; the note says so
    const base = themeFor(controller.variant.name).rankBase;
    $('#board-note').textContent =
      base === 0
        ? `Ranks are numbered 0–${controller.variant.ranks - 1}, as this game's notation writes them (a town on the first rank: T@e0).`
        : '';
  });
  $('#mode').addEventListener('click', () => controller.setAnalysis(!controller.inAnalysis));
  $('#review').addEventListener('click', () => void runReview());
  $('#review-run').addEventListener('click', () => {
    if (reviewing) {
      cancelReview();
      updateButtons();
    } else void runReview();
  });
  // a word on the game chosen: its board and its hand, as the rules describe it
  const describe = () => {
    const v = rules.variants().find(x => x.name === variantSelect.value);
    const hand = v?.handKinds && v.handKinds.white.length > 0;
    const zero = v && themeFor(v.name).rankBase === 0 ? `, ranks 0–${v.ranks - 1}` : '';
    $('#variant-note').textContent = v ? `${v.files}×${v.ranks} board${zero}${hand ? ', pieces in hand' : ''}` : '';
  };
  variantSelect.addEventListener('change', describe);
  describe();

  const start = async (settings: GameSettings) => {
    try {
      io.clearMessage();
      await controller.newGame(settings, undefined, [], 'play');
      forgetReview();
    } catch (e) {
      say(`Could not start: ${messageOf(e)}`, 'error');
    }
  };
  form.addEventListener('submit', e => {
    e.preventDefault();
    saveForm(form);
    void start(readForm(form));
  });
  $('#takeback').addEventListener('click', () => controller.takeBack());
  $('#flip').addEventListener('click', () => controller.flip());
  $('#resign').addEventListener('click', () => controller.resign());
  $('#first').addEventListener('click', () => controller.step('start'));
  $('#prev').addEventListener('click', () => controller.step(-1));
  $('#next').addEventListener('click', () => controller.step(1));
  $('#last').addEventListener('click', () => controller.step('end'));
  document.addEventListener('keydown', e => {
    const t = e.target as HTMLElement;
    if (t.closest('input, textarea, select, [role=dialog]')) return;
    const keys: Record<string, () => void> = {
      ArrowLeft: () => controller.step(-1),
      ArrowRight: () => controller.step(1),
      Home: () => controller.step('start'),
      End: () => controller.step('end'),
      f: () => controller.flip(),
    };
    const fn = keys[e.key];
    if (fn) {
      e.preventDefault();
      fn();
    }
  });

  await start(readForm(form));
  const fenParam = params.get('fen');
  if (fenParam) {
    try {
      await controller.loadFen(fenParam);
    } catch (e) {
      say(`FEN refused: ${messageOf(e)}`, 'error');
    }
  }
  $('#app').classList.remove('loading');
  // for the browser test and for curious people with a console
  (window as unknown as { cannonadePage: object }).cannonadePage = {
    controller,
    engine,
    rules,
    board,
    analyser,
    reviewed: () => reviewed?.result ?? null,
  };
  document.body.dataset.ready = 'true';
}

void main();
