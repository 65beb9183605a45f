#!/usr/bin/env python3
"""Syscalls per request of Wharf's generator at a fixed rate against the Wharf bench server. Usage: gencount.py TREE PROTOCOL RATE"""
import benchserver, subprocess, sys, re, time, os
JAVA = benchserver.JAVA
tree, proto, rate = sys.argv[1], sys.argv[2], sys.argv[3]
srv, ports = benchserver.start(os.environ.get("SERVER_TREE", tree), "wharf-h2", "/tmp/bis-cert")
url = {"http/1.1": f"http://127.0.0.1:{ports['H1']}/plaintext", "h2c": f"http://127.0.0.1:{ports['H2C']}/plaintext", "h2": f"https://127.0.0.1:{ports['H2']}/plaintext"}[proto]
cp = open(f"{tree}/wharf-loadgen/target/classpath.txt").read().strip() + f":{tree}/wharf-loadgen/target/classes"
gen = subprocess.Popen(["taskset", "-c", "1", JAVA, "-Xms1g", "-Xmx1g", "-XX:+UseParallelGC"] + [a for a in os.environ.get("GENJVM", "").split() if a] + ["-cp", cp, "io.wharf.loadgen.cli.LoadCommand",
    "--rate", rate, "--duration", "45s", "--ramp-up", "10s", "--users", "16", "--protocol", proto, "--insecure", url], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
ev = "syscalls:sys_enter_read,syscalls:sys_enter_write,syscalls:sys_enter_epoll_wait,syscalls:sys_enter_epoll_ctl,syscalls:sys_enter_futex,syscalls:sys_enter_writev,syscalls:sys_enter_readv,syscalls:sys_enter_sendto,syscalls:sys_enter_recvfrom,syscalls:sys_enter_sched_yield,syscalls:sys_enter_clock_nanosleep,syscalls:sys_enter_nanosleep,context-switches,task-clock"
time.sleep(25)
secs = 10
perf = subprocess.run(["perf", "stat", "-x,", "-e", ev, "-p", str(gen.pid), "--", "sleep", str(secs)], capture_output=True, text=True).stderr
n = int(rate) * secs
parts = []
for l in perf.splitlines():
    f = l.split(",")
    if len(f) > 2 and f[0].replace('.', '').isdigit() and float(f[0]) > 0:
        parts.append(f"{f[2].replace('syscalls:sys_enter_', '')}={float(f[0])/n:.3f}")
print(f"{tree.split('/')[-1]:7} {proto} {rate}/s per request: " + " ".join(parts), flush=True)
gen.wait(60)
srv.stdin.close(); srv.wait(10)
