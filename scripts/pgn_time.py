#!/usr/bin/env python3
"""How each engine of a match spent its clock, from the match's PGN.

Reads the `{score/depth time}` comments `cannonade match` writes after every move and the
`[TimeControl]` tag, and prints for each player: moves, average time and depth a move, the
average time a move by phase (moves 1-5, 6-10, 11-20, 21-40 and 41 on after the opening), the
clock left at each game's end (median and minimum, from the time control less the times
spent), and how many games it lost on time.

Usage: scripts/pgn_time.py games.pgn [more.pgn ...]

Not a test: a report for docs/log/time.md and for matches against Fairy-Stockfish.
"""
import re
import statistics
import sys
from collections import defaultdict

PHASES = [(1, 5), (6, 10), (11, 20), (21, 40), (41, 10**9)]
COMMENT = re.compile(r"\{([^}]*)\}")
MOVE_INFO = re.compile(r"(?:[+-]?[\d.]+|[+-]?M\d+|book)?/(\d+)\s+([\d.]+)s")


def games(paths):
    for path in paths:
        with open(path, encoding="utf-8") as f:
            text = f.read()
        for chunk in re.split(r"\n(?=\[Event )", text):
            if chunk.strip():
                yield chunk


def tags(chunk):
    return dict(re.findall(r'^\[(\w+) "([^"]*)"\]', chunk, re.M))


def clock(tc):
    """(moves per control or None, base seconds, increment seconds) of `[moves/]base[+inc]`."""
    moves = None
    if "/" in tc:
        m, tc = tc.split("/", 1)
        moves = int(m)
    base, _, inc = tc.partition("+")
    return moves, float(base), float(inc or 0)


def main(paths):
    per = defaultdict(lambda: {"t": [], "d": [], "phase": defaultdict(list), "left": [],
                               "forfeits": 0, "games": 0})
    for chunk in games(paths):
        t = tags(chunk)
        if "White" not in t:
            continue
        moves_tc, base, inc = clock(t.get("TimeControl", "0"))
        body = chunk[chunk.rfind("]") + 1:]
        infos = [MOVE_INFO.search(c) for c in COMMENT.findall(body)]
        # Without a FEN tag the game starts from the start position, White to move.
        fen = t.get("FEN", "").split()
        black_first = len(fen) > 1 and fen[1] == "b"
        players = [t["Black"], t["White"]] if black_first else [t["White"], t["Black"]]
        spent = {p: [] for p in players}
        for i, info in enumerate(infos):
            if info is None:
                continue
            spent[players[i % 2]].append((int(info.group(1)), float(info.group(2))))
        for p in players:
            s = per[p]
            s["games"] += 1
            left = base
            for n, (depth, secs) in enumerate(spent[p], start=1):
                s["t"].append(secs)
                s["d"].append(depth)
                for lo, hi in PHASES:
                    if lo <= n <= hi:
                        s["phase"][(lo, hi)].append(secs)
                left += inc - secs
                if moves_tc and n % moves_tc == 0:
                    left += base
            s["left"].append(left)
        term = t.get("Termination", "")
        losers = {"1-0": t["Black"], "0-1": t["White"]}
        if "time" in term.lower() and t.get("Result") in losers:
            per[losers[t["Result"]]]["forfeits"] += 1
    for p, s in per.items():
        if not s["t"]:
            continue
        phases = "  ".join(
            f"{lo}-{'' if hi > 10**8 else hi}: {statistics.mean(s['phase'][(lo, hi)]):.3f}"
            for lo, hi in PHASES if s["phase"][(lo, hi)])
        print(f"{p}: {s['games']} games, {len(s['t'])} moves, "
              f"{statistics.mean(s['t']):.3f} s and depth {statistics.mean(s['d']):.2f} a move; "
              f"clock left at the end: median {statistics.median(s['left']):.2f} s, "
              f"least {min(s['left']):.2f} s; lost on time {s['forfeits']}")
        print(f"    by moves after the opening (s a move): {phases}")


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    main(sys.argv[1:])
