#!/usr/bin/env python3
"""Self-play at a fast time control, checking that the engine never exceeds its clock.

Not part of CI (it takes minutes). Two engine processes play each other; a third `cannonade`
process is the referee: it checks every move's legality (`position ... moves ...` answers
`info string error` for an illegal move) and detects the end of the game (`go depth 1` in a
finished position answers `info depth 0 score ...` and `bestmove (none)`).

The clock is kept here, by wall time from sending `go` to reading `bestmove`, so the
measurement includes pipe and scheduling delays: stricter than a GUI.

Usage: scripts/selfplay_clock.py path/to/cannonade [games=200] [base_ms=1000] [inc_ms=10]
                                 [opponent [NAME=VALUE,...]]

With an opponent (another UCI engine, e.g. Fairy-Stockfish, with optional options), cannonade
plays it with alternating colours, and the score is counted from cannonade's side.
"""
import random
import subprocess
import sys
import time

MAX_PLIES = 400  # adjudicated a draw after this many plies
RANDOM_OPENING_PLIES = 4


class Engine:
    def __init__(self, exe, options=()):
        self.p = subprocess.Popen([exe], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  text=True, bufsize=1)
        self.send("uci")
        self.until(lambda l: l == "uciok")
        for name, value in options:
            self.send(f"setoption name {name} value {value}")
        self.send("isready")
        self.until(lambda l: l == "readyok")

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def until(self, done):
        lines = []
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise RuntimeError("engine died")
            line = line.rstrip("\n")
            lines.append(line)
            if done(line):
                return lines

    def quit(self):
        try:
            self.send("quit")
            self.p.wait(timeout=5)
        except Exception:
            self.p.kill()


class Referee(Engine):
    def legal(self, moves):
        self.send("position startpos moves " + " ".join(moves))
        self.send("isready")
        lines = self.until(lambda l: l == "readyok")
        return not any(l.startswith("info string error") for l in lines)

    def legal_moves(self, moves):
        self.send("position startpos moves " + " ".join(moves))
        self.send("go perft 1")
        lines = self.until(lambda l: l.startswith("Nodes searched"))
        return [l.split(":")[0] for l in lines if ": " in l and not l.startswith("Nodes")]

    def result(self, moves):
        """None while the game goes on, else 'loss' (side to move lost), 'win' or 'draw'."""
        self.send("position startpos moves " + " ".join(moves))
        self.send("go depth 1")
        lines = self.until(lambda l: l.startswith("bestmove"))
        if lines[-1] != "bestmove (none)":
            return None
        info = lines[0]
        if "score mate 0" in info:
            return "loss"
        if "score cp 0" in info:
            return "draw"
        return "win"


def play(engines, referee, base_ms, inc_ms, rng, watched):
    moves = []
    for _ in range(RANDOM_OPENING_PLIES):
        legal = referee.legal_moves(moves)
        if not legal:
            break
        moves.append(rng.choice(legal))
    clocks = [float(base_ms), float(base_ms)]
    for e in engines:
        e.send("ucinewgame")
    worst_margin = float("inf")
    while True:
        side = len(moves) % 2
        r = referee.result(moves)
        if r is not None:
            return r, side, None, worst_margin, len(moves)
        if len(moves) >= MAX_PLIES:
            return "draw", side, None, worst_margin, len(moves)
        e = engines[side]
        e.send("position startpos moves " + " ".join(moves))
        wt, bt = clocks[0], clocks[1]
        start = time.perf_counter()
        e.send(f"go wtime {int(wt)} btime {int(bt)} winc {inc_ms} binc {inc_ms}")
        lines = e.until(lambda l: l.startswith("bestmove"))
        spent = (time.perf_counter() - start) * 1000
        if e in watched:
            worst_margin = min(worst_margin, clocks[side] - spent)
        if spent > clocks[side]:
            return "forfeit", side, f"spent {spent:.1f} ms with {clocks[side]:.1f} ms left", \
                worst_margin, len(moves)
        clocks[side] += inc_ms - spent
        mv = lines[-1].split()[1]
        moves.append(mv)
        if mv == "(none)" or not referee.legal(moves):
            return "illegal", side, f"move {mv} after {' '.join(moves[:-1])}", worst_margin, \
                len(moves)


def main():
    exe = sys.argv[1]
    games = int(sys.argv[2]) if len(sys.argv) > 2 else 200
    base_ms = int(sys.argv[3]) if len(sys.argv) > 3 else 1000
    inc_ms = int(sys.argv[4]) if len(sys.argv) > 4 else 10
    rng = random.Random(12345)
    opponent = sys.argv[5] if len(sys.argv) > 5 else exe
    opp_options = []
    if len(sys.argv) > 6:
        opp_options = [tuple(kv.split("=", 1)) for kv in sys.argv[6].split(",")]
    a, b = Engine(exe), Engine(opponent, opp_options)
    referee = Referee(exe)
    points = 0.0  # for engine a (cannonade)
    watched = [a] if opponent != exe else [a, b]
    tally = {}
    forfeits = illegal = 0
    worst = float("inf")
    plies = 0
    t0 = time.time()
    for g in range(games):
        engines = [a, b] if g % 2 == 0 else [b, a]
        result, side, why, margin, n = play(engines, referee, base_ms, inc_ms, rng, watched)
        # Who moved last / is to move decides who won: `side` is the side to move (or the
        # offender for a forfeit or illegal move).
        a_side = 0 if g % 2 == 0 else 1
        if result == "draw":
            points += 0.5
        elif result in ("loss", "forfeit", "illegal"):
            points += 1.0 if side != a_side else 0.0
        elif result == "win":
            points += 1.0 if side == a_side else 0.0
        if engines[side] not in watched and result in ("forfeit", "illegal"):
            # Only cannonade's own failures count below.
            tally[result + " (opponent)"] = tally.get(result + " (opponent)", 0) + 1
            continue
        worst = min(worst, margin)
        plies += n
        tally[result] = tally.get(result, 0) + 1
        if result == "forfeit":
            forfeits += 1
            print(f"game {g + 1}: TIME FORFEIT by {'white' if side == 0 else 'black'}: {why}",
                  flush=True)
        if result == "illegal":
            illegal += 1
            print(f"game {g + 1}: ILLEGAL by {'white' if side == 0 else 'black'}: {why}",
                  flush=True)
        if (g + 1) % 10 == 0:
            print(f"{g + 1} games, {tally}, cannonade {points}/{g + 1}, "
                  f"smallest clock margin {worst:.1f} ms, {time.time() - t0:.0f} s", flush=True)
    for e in (a, b, referee):
        e.quit()
    print(f"done: {games} games at {base_ms}+{inc_ms} ms, {plies} plies, results {tally}, "
          f"time forfeits {forfeits}, illegal moves {illegal}, "
          f"smallest clock left after a move {worst:.1f} ms, cannonade scored {points}/{games}")
    sys.exit(1 if forfeits or illegal else 0)


if __name__ == "__main__":
    main()
