#!/usr/bin/env python3
"""JFR execution samples (1 ms; cpu.jfc beside this script) of the bench server of TREE under wrk -cC PATH (default -c256 /json), 15 s after a 22 s warm-up. Usage: srvjfr.py TREE OUT.jfr [PATH C]"""
import benchserver, os, subprocess, sys, time, re
tree, out = sys.argv[1], sys.argv[2]
path, conns = (sys.argv[3], sys.argv[4]) if len(sys.argv) > 4 else ("/json", "256")
J = benchserver.JAVA
p = subprocess.Popen(["taskset", "-c", "0", J, "-Xms1g", "-Xmx1g", "-XX:+UseParallelGC",
    f"-XX:StartFlightRecording=delay=22s,duration=15s,settings={os.path.join(os.path.dirname(os.path.abspath(__file__)), 'cpu.jfc')},filename={out}",
    "-cp", f"{tree}/wharf-bench/target/wharf-bench.jar", "io.wharf.bench.ServerProcess", "wharf-http"],
    stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
line = p.stdout.readline()
while line.startswith("["): line = p.stdout.readline()
port = int(line.split()[1])
r = subprocess.run(["taskset", "-c", "1", "wrk", "-t1", f"-c{conns}", "-d40s", f"http://127.0.0.1:{port}{path}"], capture_output=True, text=True).stdout
print(tree, re.search(r"Requests/sec:\s+(\S+)", r).group(1))
time.sleep(1)
p.stdin.close(); p.wait(20)
