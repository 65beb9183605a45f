#!/usr/bin/env python3
"""Two bench servers (wharf-http) of trees A and B alive at once, both on CPU 0, wrk -t1 on CPU 1 loading one then
the other in short alternating windows (A B B A ...), so the machine's drift falls on both alike. Prints each
window's server CPU per request and, per scenario, the median of the per-pair ratios B/A.
Usage: paired-http.py TREE_A TREE_B PAIRS"""
import benchserver, subprocess, sys, re
tree_a, tree_b, pairs = sys.argv[1], sys.argv[2], int(sys.argv[3])
servers = {name: benchserver.start(tree, "wharf-http") for name, tree in (("A", tree_a), ("B", tree_b))}
def wrk(name, path, c, secs):
    port = servers[name][1]["H1"]
    out = subprocess.run(["taskset", "-c", "1", "wrk", "-t1", f"-c{c}", f"-d{secs}s", f"http://127.0.0.1:{port}{path}"],
                         capture_output=True, text=True).stdout
    return int(re.search(r"(\d+) requests in", out).group(1))
try:
    for scenario, path, c in [("plain", "/plaintext", 64), ("json", "/json", 256)]:
        benchserver.paired(servers, scenario, pairs, lambda name, secs: wrk(name, path, c, secs))
finally:
    for p, _ in servers.values():
        p.stdin.close(); p.wait(10)
