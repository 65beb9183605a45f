#!/usr/bin/env python3
"""Two bench servers (wharf-http) of trees A and B alive at once, both on CPU 0, wrk -t1 on CPU 1 loading one then
the other in short alternating windows (A B B A ...), so the machine's drift falls on both alike. Prints each
window's server CPU per request and, per scenario, the median of the per-pair ratios B/A.
Usage: paired-http.py TREE_A TREE_B PAIRS"""
import benchserver, subprocess, sys, re, statistics
tree_a, tree_b, pairs = sys.argv[1], sys.argv[2], int(sys.argv[3])
servers = {}
for name, tree in (("A", tree_a), ("B", tree_b)):
    servers[name] = benchserver.start(tree, "wharf-http")
def wrk(name, path, c, secs):
    port = servers[name][1]["H1"]
    out = subprocess.run(["taskset", "-c", "1", "wrk", "-t1", f"-c{c}", f"-d{secs}s", f"http://127.0.0.1:{port}{path}"],
                         capture_output=True, text=True).stdout
    return int(re.search(r"(\d+) requests in", out).group(1))
def cmd(name, c):
    p = servers[name][0]
    p.stdin.write(c + "\n"); p.stdin.flush(); return p.stdout.readline().split()
def window(name, path, c):
    cmd(name, "MARK"); n = wrk(name, path, c, 5); rep = cmd(name, "REPORT")
    return int(rep[1]) / 1000 / n, int(rep[3]) / n
try:
    for scenario, path, c in [("plain", "/plaintext", 64), ("json", "/json", 256)]:
        for name in ("A", "B", "A", "B"):
            wrk(name, path, c, 8)
        ratios = []
        for i in range(pairs):
            order = ("A", "B") if i % 2 == 0 else ("B", "A")
            got = {name: window(name, path, c) for name in order}
            ratios.append(got["B"][0] / got["A"][0])
            print(f"{scenario:6} pair {i:2} A {got['A'][0]:6.3f} us/req {got['A'][1]:6.1f} B/req   B {got['B'][0]:6.3f} us/req {got['B'][1]:6.1f} B/req   B/A {ratios[-1]:.3f}", flush=True)
        print(f"{scenario:6} median B/A {statistics.median(ratios):.3f} over {pairs} pairs", flush=True)
finally:
    for p, _ in servers.values():
        p.stdin.close(); p.wait(10)
