#!/usr/bin/env python3
"""Differential test of cannonade's Cannon Shogi against pyffish (Fairy-Stockfish's Python
binding), the rules engine of pychess-variants. Not part of CI.

Plays random games with pyffish and, for every position on the way, compares with cannonade:
the FEN (as Fairy-Stockfish prints it), the set of legal move strings, and the game result
(checkmate, stalemate, fourfold repetition, perpetual check). Some games shuffle back and forth
on purpose so that repetitions happen, and a few scripted perpetual-check lines are included.

Setup (outside the repository):
    python3 -m venv venv && venv/bin/pip install pyffish
    Fairy-Stockfish's src/variants.ini (defines cannonshogi) saved somewhere, e.g.
    /work/yardstick/fsf/src/variants.ini

Usage:
    venv/bin/python scripts/diff_pyffish.py --engine target/release/cannonade \
        --ini /path/to/variants.ini --games 300 --seed 1
"""

import argparse
import random
import subprocess
import sys

import pyffish as sf

VARIANT = "cannonshogi"
VALUE_MATE = 32000

# Extra start positions besides the normal start: drop-heavy and cannon-heavy ones.
EXTRA_STARTS = [
    "4k4/9/9/9/9/9/9/9/4K4[RBUACIrbuaci] w - - 0 1",
    "4k4/9/9/9/9/9/9/9/4K4[RBGSNLPUACIrbgsnlpuaci] w - - 0 1",
    "lnsgkgsnl/1rci1uab1/p1p1p1p1p/9/9/9/P1P1P1P1P/1BAU1ICR1/LNSGKGSNL[UACIuaci] w - - 0 1",
    "4k4/1+u5+c1/9/2A3I2/9/2i3a2/9/1+C5+U1/4K4[PPpp] w - - 0 1",
]

# Scripted lines: (start FEN, moves). Perpetual check by a rook along ranks 9 and 8.
SCRIPTED = [
    ("R7k/9/9/9/7N1/9/9/9/4K2L1[] b - - 0 1",
     "i9i8 a9a8 i8i9 a8a9 i9i8 a9a8 i8i9 a8a9 i9i8 a9a8 i8i9 a8a9".split()),
    ("8k/R8/9/9/7N1/9/9/9/4K2L1[] w - - 0 1",
     "a8a9 i9i8 a9a8 i8i9 a8a9 i9i8 a9a8 i8i9 a8a9 i9i8 a9a8 i8i9".split()),
    # Plain shuffling: a draw by fourfold repetition.
    ("4k4/9/9/9/9/9/9/9/4K4[] w - - 0 1",
     "e1d1 e9d9 d1e1 d9e9 e1d1 e9d9 d1e1 d9e9 e1d1 e9d9 d1e1 d9e9".split()),
]


def reference_result(start, moves, legal):
    """pyffish's verdict for the side to move: 'none', 'win', 'loss' or 'draw'."""
    end, value = sf.is_optional_game_end(VARIANT, start, moves)
    if not end and legal:
        return "none"
    if not end:
        value = sf.game_result(VARIANT, start, moves)
    return "win" if value > 0 else "loss" if value < 0 else "draw"


def occupied_squares(fen):
    """The occupied squares of a FEN's board, as names like 'e5'."""
    board = fen.split("[")[0].split()[0]
    occ = set()
    for i, row in enumerate(board.split("/")):
        rank = 9 - i
        f = 0
        for c in row:
            if c.isdigit():
                f += int(c)
            elif c != "+":
                occ.add(f"{chr(ord('a') + f)}{rank}")
                f += 1
    return occ


def position_id(fen):
    """Board, hands and side to move: what a repetition compares."""
    parts = fen.split()
    return parts[0] + " " + parts[1]


def play_game(rng, start, max_plies, shuffle_from):
    """Random play; from ply `shuffle_from` on, each side undoes its own previous move when it
    can, which produces repetitions. Returns (start, moves, legal, fen, result) for every
    position of the game."""
    moves = []
    seen = []
    counts = {}
    fen = sf.get_fen(VARIANT, start, [])
    for ply in range(max_plies + 1):
        # Ask about the current FEN rather than replaying the game each time (much faster);
        # the history is only needed for the repetition verdict, which pyffish is asked for
        # once a position has occurred three times or more (cannonshogi has no other optional
        # game end).
        legal = sf.legal_moves(VARIANT, fen, [])
        pid = position_id(fen)
        counts[pid] = counts.get(pid, 0) + 1
        if counts[pid] >= 3 or not legal:
            result = reference_result(start, moves, legal)
        else:
            result = "none"
        seen.append((start, list(moves), legal, fen, result))
        if result != "none":
            break
        choice = None
        if ply >= shuffle_from and len(moves) >= 2:
            back = moves[-2]
            if "@" not in back:
                rev = back[2:4] + back[0:2]
                if rev in legal:
                    choice = rev
        if choice is None:
            occ = occupied_squares(fen)
            captures = [m for m in legal if "@" not in m and m[2:4] in occ]
            if captures and rng.random() < 0.5:
                choice = rng.choice(captures)
            else:
                choice = rng.choice(legal)
        moves.append(choice)
        fen = sf.get_fen(VARIANT, fen, [choice])
    return seen


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--engine", default="target/release/cannonade")
    ap.add_argument("--ini", default="/work/yardstick/fsf/src/variants.ini")
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--max-plies", type=int, default=160)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()

    with open(args.ini) as f:
        sf.load_variant_config(f.read())
    rng = random.Random(args.seed)
    normal_start = sf.get_fen(VARIANT, sf.start_fen(VARIANT), [])

    cases = []
    for g in range(args.games):
        start = normal_start if g % 4 else rng.choice(EXTRA_STARTS)
        shuffle_from = rng.choice([10**9, 10**9, rng.randrange(4, 60)])
        cases.extend(play_game(rng, start, args.max_plies, shuffle_from))
    for start, line in SCRIPTED:
        for i in range(len(line) + 1):
            legal = sf.legal_moves(VARIANT, start, line[:i])
            cases.append((start, line[:i], legal, sf.get_fen(VARIANT, start, line[:i]),
                          reference_result(start, line[:i], legal)))

    query = "".join(
        f"{start}{' moves ' + ' '.join(moves) if moves else ''}\n" for start, moves, *_ in cases)
    out = subprocess.run([args.engine, "legal", "--variant", VARIANT], input=query,
                         capture_output=True, text=True, check=True).stdout.splitlines()
    if len(out) != len(cases):
        sys.exit(f"engine answered {len(out)} lines for {len(cases)} positions")

    diffs = 0
    results = {}
    for (start, moves, legal, ref_fen, ref_result), answer in zip(cases, out):
        fields = answer.split("\t")
        where = f"{start} moves {' '.join(moves)}"
        if fields[0] == "error":
            diffs += 1
            print(f"ERROR {where}: {fields[1]}")
            continue
        fen, ours, our_result = fields
        results[ref_result] = results.get(ref_result, 0) + 1
        ours = set(ours.split())
        theirs = set(legal)
        problems = []
        if fen != ref_fen:
            problems.append(f"FEN ours {fen} theirs {ref_fen}")
        if ours != theirs:
            problems.append(f"moves only ours {sorted(ours - theirs)} "
                            f"only theirs {sorted(theirs - ours)}")
        if our_result.split(":")[0] != ref_result:
            problems.append(f"result ours {our_result} theirs {ref_result}")
        if problems:
            diffs += 1
            print(f"DIFF {where} (FEN {ref_fen}):\n  " + "\n  ".join(problems))
    print(f"compared {len(cases)} positions from {args.games} random games and "
          f"{len(SCRIPTED)} scripted lines; results seen: {results}; differences: {diffs}")
    sys.exit(1 if diffs else 0)


if __name__ == "__main__":
    main()
