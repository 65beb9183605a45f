"""Starts the bench's ServerProcess of one tree on CPU 0 and reads its ports; shared by the measuring scripts."""
import subprocess
JAVA = "/usr/lib/jvm/temurin-25-jdk-amd64/bin/java"


def start(tree, kind, *args):
    """@return (process, ports): ports maps H1 (and, for wharf-h2, H2C and H2) to port numbers."""
    p = subprocess.Popen(["taskset", "-c", "0", JAVA, "-Xms1g", "-Xmx1g", "-XX:+UseParallelGC",
                          "-cp", f"{tree}/wharf-bench/target/wharf-bench.jar", "io.wharf.bench.ServerProcess", kind, *args],
                         stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
    line = p.stdout.readline()
    while line.startswith("["):
        line = p.stdout.readline()
    w = line.split()
    ports = {"H1": int(w[1])}
    for i in range(2, len(w) - 1, 2):
        ports[w[i]] = int(w[i + 1])
    return p, ports
