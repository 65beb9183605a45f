#!/usr/bin/env python3
"""Wharf-only h2 measurement: server on CPU 0, h2load on CPU 1. Usage: measure.py TREE ROUNDS SCENARIO..."""
import benchserver, subprocess, sys, re, time
tree, rounds, scen = sys.argv[1], int(sys.argv[2]), sys.argv[3:] or ["h2c16"]
p, ports = benchserver.start(tree, "wharf-h2", "/tmp/bis-cert")
def io():
    d = dict(l.split(": ") for l in open(f"/proc/{p.pid}/io").read().splitlines())
    return int(d["syscr"]), int(d["syscw"])
def h2load(s, secs):
    c, m, url = {"h2c16": (16, 32, f"http://127.0.0.1:{ports['H2C']}/plaintext"),
                 "h2c4": (4, 100, f"http://127.0.0.1:{ports['H2C']}/plaintext"),
                 "h2tls": (16, 32, f"https://127.0.0.1:{ports['H2']}/plaintext")}[s]
    cmd = ["taskset", "-c", "1", "h2load", "-t1", f"-c{c}", f"-m{m}", "-D", str(secs)]
    if s == "h2tls": cmd.append("--tls13-ciphers=TLS_AES_128_GCM_SHA256")
    out = subprocess.run(cmd + [url], capture_output=True, text=True).stdout
    ok = int(re.search(r"(\d+) succeeded, (\d+) failed", out).group(1))
    return ok
def cmd(c):
    p.stdin.write(c + "\n"); p.stdin.flush(); return p.stdout.readline().split()
try:
    for s in scen:
        h2load(s, 5); h2load(s, 5)
        for r in range(rounds):
            cmd("MARK"); r0, w0 = io()
            n = h2load(s, 10)
            rep = cmd("REPORT"); r1, w1 = io()
            cpu, alloc = int(rep[1]), int(rep[3])
            print(f"{tree.split('/')[-1]:10} {s:6} {n/10:9.0f} req/s {cpu/1000/n:6.3f} us/req {alloc/n:7.1f} B/req reads/req {(r1-r0)/n:.4f} writes/req {(w1-w0)/n:.4f}", flush=True)
finally:
    p.stdin.close(); p.wait(10)
