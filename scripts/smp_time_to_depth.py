#!/usr/bin/env python3
"""Time to reach a fixed depth with 1 and with 2 threads (Lazy SMP), over fixed positions.

Not part of CI. Each position is searched from a fresh hash (`ucinewgame`) with `go depth D`;
the time is the engine's own `time` field of the last info line before `bestmove`.

Usage: scripts/smp_time_to_depth.py path/to/cannonade [depth=12] [threads=2] [rounds=1]
       scripts/smp_time_to_depth.py path/to/cannonade depth threads rounds --against OTHER

With --against, both binaries search with `threads` threads, one after the other in each
round (the order alternating from round to round), and the times are compared side by side:
the ratio is this binary's time over OTHER's (below 1: this one is faster).
"""
import subprocess
import sys

POSITIONS = [
    "startpos",
    "fen r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "fen r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    "fen r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
    "fen 2r3k1/pp3ppp/2n1b3/3p4/3P4/2PB1N2/P4PPP/R5K1 b - - 3 20",
    "fen 8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "fen rnbqkb1r/pp1p1ppp/4pn2/2p5/2PP4/2N5/PP2PPPP/R1BQKBNR w KQkq - 0 4",
    "fen r2q1rk1/pp2bppp/2n1bn2/3p4/3P4/2NBBN2/PP3PPP/R2Q1RK1 w - - 4 11",
]


def run(exe, threads, depth):
    p = subprocess.Popen([exe], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                         bufsize=1)

    def send(s):
        p.stdin.write(s + "\n")
        p.stdin.flush()

    def until(prefix):
        lines = []
        while True:
            line = p.stdout.readline()
            if not line:
                raise RuntimeError("engine died")
            lines.append(line.strip())
            if line.startswith(prefix):
                return lines

    send("uci")
    until("uciok")
    send(f"setoption name Threads value {threads}")
    send("setoption name Hash value 64")
    times = []
    for pos in POSITIONS:
        send("ucinewgame")
        send("position " + pos)
        send(f"go depth {depth}")
        lines = until("bestmove")
        info = [l for l in lines if l.startswith("info depth ")][-1]
        assert int(info.split()[2]) >= depth, info
        ms = int(info.split(" time ")[1].split()[0])
        nodes = int(info.split(" nodes ")[1].split()[0])
        times.append((ms, nodes))
    send("quit")
    p.wait()
    return times


def against(exe, other, depth, threads, rounds):
    mine = [0] * len(POSITIONS)
    theirs = [0] * len(POSITIONS)
    mine_nodes = theirs_nodes = 0
    for r in range(rounds):
        order = [(exe, mine), (other, theirs)]
        if r % 2:
            order.reverse()
        for binary, acc in order:
            for i, (t, n) in enumerate(run(binary, threads, depth)):
                acc[i] += t
                if acc is mine:
                    mine_nodes += n
                else:
                    theirs_nodes += n
    for i, pos in enumerate(POSITIONS):
        print(f"{pos[:50]:50} this {mine[i] / rounds:8.0f} ms   other {theirs[i] / rounds:8.0f} ms")
    a, b = sum(mine) / rounds, sum(theirs) / rounds
    print(f"total at depth {depth}, {threads} threads, {rounds} rounds: this {a:.0f} ms, "
          f"other {b:.0f} ms, ratio {a / max(b, 1):.3f}; nodes this {mine_nodes / rounds:.0f}, "
          f"other {theirs_nodes / rounds:.0f}")


def main():
    if "--against" in sys.argv:
        k = sys.argv.index("--against")
        other = sys.argv[k + 1]
        args = sys.argv[:k] + sys.argv[k + 2:]
        against(args[1], other, int(args[2]), int(args[3]), int(args[4]))
        return
    exe = sys.argv[1]
    depth = int(sys.argv[2]) if len(sys.argv) > 2 else 12
    threads = int(sys.argv[3]) if len(sys.argv) > 3 else 2
    rounds = int(sys.argv[4]) if len(sys.argv) > 4 else 1
    one = [0] * len(POSITIONS)
    many = [0] * len(POSITIONS)
    one_nodes = [0] * len(POSITIONS)
    many_nodes = [0] * len(POSITIONS)
    for _ in range(rounds):
        for i, (t, n) in enumerate(run(exe, 1, depth)):
            one[i] += t
            one_nodes[i] += n
        for i, (t, n) in enumerate(run(exe, threads, depth)):
            many[i] += t
            many_nodes[i] += n
    for i, pos in enumerate(POSITIONS):
        print(f"{pos[:50]:50} 1 thread {one[i] / rounds:7.0f} ms {one_nodes[i] / rounds:9.0f} n"
              f"   {threads} threads {many[i] / rounds:7.0f} ms {many_nodes[i] / rounds:9.0f} n")
    s1, s2 = sum(one) / rounds, sum(many) / rounds
    n1, n2 = sum(one_nodes) / rounds, sum(many_nodes) / rounds
    print(f"total: 1 thread {s1:.0f} ms, {threads} threads {s2:.0f} ms, "
          f"wall speed-up {s1 / max(s2, 1):.2f}x (depth {depth})")
    # On a machine with a free core per thread every thread runs at the 1-thread speed, so the
    # node counts predict the wall-clock speed-up even when the machine is busy.
    print(f"nodes: 1 thread {n1:.0f}, {threads} threads {n2:.0f} (all threads); "
          f"speed-up with a free core per thread ~{threads * n1 / max(n2, 1):.2f}x")


if __name__ == "__main__":
    main()
