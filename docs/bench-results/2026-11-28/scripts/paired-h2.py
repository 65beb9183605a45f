#!/usr/bin/env python3
"""HTTP/2, two bench servers (wharf-h2) of trees A and B alive at once, both on CPU 0, h2load -t1 on CPU 1 loading one
then the other in alternating 5 s windows (A B B A ...), as paired-http.py does for HTTP/1.1.
Usage: paired-h2.py TREE_A TREE_B PAIRS SCENARIO...   (h2c16: -c16 -m32 h2c; h2c4: -c4 -m100 h2c; h2tls: -c16 -m32 over TLS)"""
import benchserver, subprocess, sys, re
tree_a, tree_b, pairs, scenarios = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4:] or ["h2tls"]
servers = {name: benchserver.start(tree, "wharf-h2", "/tmp/bis-cert") for name, tree in (("A", tree_a), ("B", tree_b))}
def h2load(name, scenario, secs):
    ports = servers[name][1]
    c, m, url = {"h2c16": (16, 32, f"http://127.0.0.1:{ports['H2C']}/plaintext"),
                 "h2c4": (4, 100, f"http://127.0.0.1:{ports['H2C']}/plaintext"),
                 "h2tls": (16, 32, f"https://127.0.0.1:{ports['H2']}/plaintext")}[scenario]
    cmd = ["taskset", "-c", "1", "h2load", "-t1", f"-c{c}", f"-m{m}", "-D", str(secs)]
    if scenario == "h2tls":
        cmd.append("--tls13-ciphers=TLS_AES_128_GCM_SHA256")
    out = subprocess.run(cmd + [url], capture_output=True, text=True).stdout
    return int(re.search(r"(\d+) succeeded, (\d+) failed", out).group(1))
try:
    for scenario in scenarios:
        benchserver.paired(servers, scenario, pairs, lambda name, secs: h2load(name, scenario, secs))
finally:
    for p, _ in servers.values():
        p.stdin.close(); p.wait(10)
