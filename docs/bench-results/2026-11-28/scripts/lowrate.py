#!/usr/bin/env python3
"""Latency at one fixed rate for one bench server: KIND (wharf-http, jetty-http) of TREE on CPU 0, warmed by wrk -c64,
then `wharf load` (open model, 64 users x 1 connection, HTTP/1.1) on CPU 1; prints its JSON summary's percentiles.
Usage: lowrate.py TREE KIND PATH RATE [SECONDS] [EXTRA_JVM_OPTION...]"""
import benchserver, json, os, subprocess, sys, tempfile
tree, kind, path, rate = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
secs = sys.argv[5] if len(sys.argv) > 5 else "10"
p, ports = benchserver.start(tree, kind)
url = f"http://127.0.0.1:{ports['H1']}{path}"
try:
    subprocess.run(["taskset", "-c", "1", "wrk", "-t1", "-c64", "-d5s", url], capture_output=True)
    cp = open("/work/main/wharf-loadgen/target/classpath.txt").read().strip() + ":/work/main/wharf-loadgen/target/classes"
    out = tempfile.mktemp(suffix=".json")
    subprocess.run(["taskset", "-c", "1", benchserver.JAVA, "-cp", cp, "io.wharf.loadgen.cli.LoadCommand", "--rate", str(rate),
                    "--duration", f"{secs}s", "--users", "64", "--warmup", str(rate * 2), "--json", out, url],
                   capture_output=True, text=True)
    summary = json.load(open(out))
    print(kind, path, rate, json.dumps(summary)[:900])
finally:
    p.stdin.close(); p.wait(10)
