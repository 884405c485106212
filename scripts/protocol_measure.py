#!/usr/bin/env python3
"""Measures what issue 16 asks to keep (not part of CI: timings depend on the machine).

- `stop` -> `bestmove` latency (UCI) and `?` -> `move` latency (XBoard), at 1 and 2 threads, in
  every variant's start position: `go infinite` / `go` on a long clock, a pause, then the
  command, timed until the answer line arrives.
- `ponderhit` -> `bestmove` on a 300 ms clock, and the answer to `go wtime 25 btime 25 winc 10
  binc 10` with 100 threads and MultiPV 3 (the fuzzer's case of a main thread starved by its
  helpers): the timings the protocol tests no longer assert (they bound work and lines).
- Resident memory against `Hash`: VmRSS and VmHWM from /proc/PID/status after
  `setoption name Hash value H` and a search long enough to write all over the table.

Usage: scripts/protocol_measure.py path/to/cannonade [runs per variant] [search seconds]
"""
import statistics, subprocess, sys, time

exe = sys.argv[1]
runs = int(sys.argv[2]) if len(sys.argv) > 2 else 6
search_s = float(sys.argv[3]) if len(sys.argv) > 3 else 6.0


class Engine:
    def __init__(self):
        self.p = subprocess.Popen([exe], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  text=True, bufsize=1)

    def send(self, s):
        self.p.stdin.write(s + "\n")
        self.p.stdin.flush()

    def wait_for(self, pred):
        lines = []
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise SystemExit("engine died")
            lines.append(line.rstrip("\n"))
            if pred(lines[-1]):
                return lines

    def status_kb(self, field):
        with open(f"/proc/{self.p.pid}/status") as f:
            for line in f:
                if line.startswith(field + ":"):
                    return int(line.split()[1])

    def quit(self):
        self.send("quit")
        self.p.wait(timeout=10)


def variants():
    out = subprocess.run([exe, "variants"], capture_output=True, text=True).stdout
    vs = []
    for line in out.splitlines():
        if line and not line[0].isspace():
            name = line.split()[0]
            xb = line.split("XBoard: ")[1].split(")")[0]
            vs.append((name, xb))
    return vs


def summary(lat):
    lat = sorted(lat)
    p90 = lat[min(len(lat) - 1, int(0.9 * len(lat)))]
    return (f"{len(lat)} runs: median {statistics.median(lat):.2f} ms, p90 {p90:.2f} ms, "
            f"max {lat[-1]:.2f} ms")


def uci_stop(threads):
    e = Engine()
    e.send("uci")
    e.wait_for(lambda l: l == "uciok")
    e.send(f"setoption name Threads value {threads}")
    lat, worst = [], {}
    for name, _ in variants():
        e.send(f"setoption name UCI_Variant value {name}")
        for i in range(runs):
            e.send("position startpos")
            e.send("go infinite")
            time.sleep(0.2 + 0.05 * (i % 4))
            t = time.perf_counter()
            e.send("stop")
            e.wait_for(lambda l: l.startswith("bestmove"))
            ms = (time.perf_counter() - t) * 1000
            lat.append(ms)
            worst[name] = max(worst.get(name, 0), ms)
    e.quit()
    return lat, worst


def xboard_move_now(threads):
    e = Engine()
    e.send("xboard")
    e.send("protover 2")
    e.wait_for(lambda l: "done=1" in l)
    e.send(f"cores {threads}")
    lat = []
    for _, xb in variants():
        for i in range(runs):
            e.send("new")
            e.send(f"variant {xb}")
            e.send("level 0 60 0")
            e.send("time 600000")
            e.send("go")
            time.sleep(0.2 + 0.05 * (i % 4))
            t = time.perf_counter()
            e.send("?")
            e.wait_for(lambda l: l.startswith("move "))
            lat.append((time.perf_counter() - t) * 1000)
    e.quit()
    return lat


def uci_ponderhit():
    e = Engine()
    e.send("uci")
    e.wait_for(lambda l: l == "uciok")
    e.send("setoption name Ponder value true")
    lat = []
    for i in range(runs):
        e.send("position startpos moves e2e4 e7e5")
        e.send("go ponder wtime 300 btime 300")
        time.sleep(0.2 + 0.05 * (i % 4))
        t = time.perf_counter()
        e.send("ponderhit")
        e.wait_for(lambda l: l.startswith("bestmove"))
        lat.append((time.perf_counter() - t) * 1000)
    e.quit()
    return lat


def short_clock(threads):
    e = Engine()
    e.send("uci")
    e.wait_for(lambda l: l == "uciok")
    for o in ("UCI_Variant value swedishcannon", f"Threads value {threads}", "MultiPV value 3"):
        e.send(f"setoption name {o}")
    lat = []
    for i in range(runs):
        e.send("position startpos moves " + " ".join(["e2e3", "e7e6", "d2d4", "d7d5"][:i % 5]))
        e.send("go nodes 2590")
        e.wait_for(lambda l: l.startswith("bestmove"))
        t = time.perf_counter()
        e.send("go wtime 25 btime 25 winc 10 binc 10")
        e.wait_for(lambda l: l.startswith("bestmove"))
        lat.append((time.perf_counter() - t) * 1000)
    e.quit()
    return lat


def memory(hash_mb):
    e = Engine()
    e.send("uci")
    e.wait_for(lambda l: l == "uciok")
    e.send(f"setoption name Hash value {hash_mb}")
    e.send("isready")
    e.wait_for(lambda l: l == "readyok")
    idle = e.status_kb("VmRSS") // 1024
    e.send("position fen r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
    e.send(f"go movetime {int(search_s * 1000)}")
    lines = e.wait_for(lambda l: l.startswith("bestmove"))
    info = [l for l in lines if " hashfull " in l][-1].split()
    nodes = int(info[info.index("nodes") + 1])
    rss = e.status_kb("VmRSS") // 1024
    hwm = e.status_kb("VmHWM") // 1024
    e.quit()
    return idle, rss, hwm, nodes


with open("/proc/loadavg") as f:
    print("load average before:", " ".join(f.read().split()[:3]))
for threads in (1, 2):
    lat, worst = uci_stop(threads)
    print(f"UCI stop -> bestmove, {threads} thread(s), {len(worst)} variants x {runs}: "
          f"{summary(lat)}")
    print("  worst per variant: " + ", ".join(f"{k} {v:.1f}" for k, v in worst.items()))
    print(f"XBoard ? -> move, {threads} core(s): {summary(xboard_move_now(threads))}")
print(f"UCI ponderhit -> bestmove on a 300 ms clock: {summary(uci_ponderhit())}")
print(f"UCI go on a 25 ms clock, 100 threads, MultiPV 3: {summary(short_clock(100))}")
print(f"resident memory (MB) after a {search_s:g} s search from a chess middle game:")
for h in (1, 16, 64, 256, 1024):
    idle, rss, hwm, nodes = memory(h)
    print(f"  Hash {h:5}: idle {idle:4}, after the search {rss:5} (peak {hwm:5}), "
          f"{rss - h:+5} over Hash; {nodes} nodes")
with open("/proc/loadavg") as f:
    print("load average after:", " ".join(f.read().split()[:3]))
