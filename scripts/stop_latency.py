#!/usr/bin/env python3
"""Measures how fast `stop` is answered with `bestmove` (not part of CI).

Usage: scripts/stop_latency.py path/to/cannonade [runs] [threads]
"""
import subprocess, sys, time

exe = sys.argv[1]
runs = int(sys.argv[2]) if len(sys.argv) > 2 else 20
threads = int(sys.argv[3]) if len(sys.argv) > 3 else 1
p = subprocess.Popen([exe], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)

def send(s):
    p.stdin.write(s + "\n"); p.stdin.flush()

def wait_for(prefix):
    while True:
        line = p.stdout.readline()
        if not line:
            raise SystemExit("engine died")
        if line.startswith(prefix):
            return line

send("uci"); wait_for("uciok")
send(f"setoption name Threads value {threads}")
lat = []
fens = ["startpos", "fen r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"]
for i in range(runs):
    send("position " + fens[i % 2]); send("go infinite")
    time.sleep(0.3 + 0.05 * (i % 5))
    t = time.perf_counter(); send("stop"); wait_for("bestmove")
    lat.append((time.perf_counter() - t) * 1000)
send("quit")
lat.sort()
print(f"stop latency over {runs} runs with {threads} thread(s): median {lat[len(lat)//2]:.2f} ms, max {lat[-1]:.2f} ms")
