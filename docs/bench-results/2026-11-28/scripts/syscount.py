#!/usr/bin/env python3
"""Syscalls per request of the Wharf server (HTTP/1.1): perf tracepoints on the server pid while wrk runs. Usage: syscount.py TREE PATH CONNS"""
import benchserver, subprocess, sys, re, time, threading
tree, path, c = sys.argv[1], sys.argv[2], int(sys.argv[3])
p, ports = benchserver.start(tree, "wharf-http")
port = ports["H1"]
def wrk(secs):
    out = subprocess.run(["taskset", "-c", "1", "wrk", "-t1", f"-c{c}", f"-d{secs}s", f"http://127.0.0.1:{port}{path}"], capture_output=True, text=True).stdout
    return int(re.search(r"(\d+) requests in", out).group(1))
ev = "syscalls:sys_enter_read,syscalls:sys_enter_write,syscalls:sys_enter_epoll_wait,syscalls:sys_enter_epoll_ctl,syscalls:sys_enter_futex,syscalls:sys_enter_writev,syscalls:sys_enter_readv,context-switches,task-clock"
try:
    wrk(5); wrk(5)
    for r in range(2):
        res = {}
        def run():
            res['n'] = wrk(10)
        t = threading.Thread(target=run); t.start()
        perf = subprocess.run(["perf", "stat", "-x,", "-e", ev, "-p", str(p.pid), "--", "sleep", "9"], capture_output=True, text=True).stderr
        t.join()
        n = res['n'] * 0.9  # perf covers 9 of wrk's 10 s
        parts = []
        for l in perf.splitlines():
            f = l.split(",")
            if len(f) > 2 and f[0].replace('.', '').isdigit():
                name = f[2].replace("syscalls:sys_enter_", "")
                parts.append(f"{name}={float(f[0])/n:.3f}")
        print(f"{tree.split('/')[-1]:7} {path} c{c} {res['n']/10:.0f}/s " + " ".join(parts), flush=True)
finally:
    p.stdin.close(); p.wait(10)
