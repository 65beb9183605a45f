#!/usr/bin/env python3
"""Wharf-only HTTP/1.1 measurement: server (wharf-http) on CPU 0, wrk -t1 on CPU 1. Usage: measure-http.py TREE ROUNDS"""
import benchserver, subprocess, sys, re
tree, rounds = sys.argv[1], int(sys.argv[2])
p, ports = benchserver.start(tree, "wharf-http")
port = ports["H1"]
def wrk(path, c, secs):
    out = subprocess.run(["taskset", "-c", "1", "wrk", "-t1", f"-c{c}", f"-d{secs}s", f"http://127.0.0.1:{port}{path}"], capture_output=True, text=True).stdout
    m = re.search(r"(\d+) requests in", out)
    return int(m.group(1))
def cmd(c):
    p.stdin.write(c + "\n"); p.stdin.flush(); return p.stdout.readline().split()
try:
    for name, path, c in [("plain", "/plaintext", 64), ("json", "/json", 256)]:
        wrk(path, c, 5); wrk(path, c, 5)
        for r in range(rounds):
            cmd("MARK"); n = wrk(path, c, 10); rep = cmd("REPORT")
            print(f"{tree.split('/')[-1]:8} {name:6} {n/10:9.0f} req/s {int(rep[1])/1000/n:6.3f} us/req {int(rep[3])/n:7.1f} B/req", flush=True)
finally:
    p.stdin.close(); p.wait(10)
