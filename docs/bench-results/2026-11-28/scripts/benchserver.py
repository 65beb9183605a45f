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


def command(p, line):
    """Sends one command (MARK, REPORT) to a started ServerProcess; @return its answer's words."""
    p.stdin.write(line + "\n"); p.stdin.flush(); return p.stdout.readline().split()


def paired(servers, scenario, pairs, load, warmup_seconds=8, window_seconds=5):
    """The pairing loop of the paired-*.py scripts: warms servers A and B ({name: (process, ports)}) with
    load(name, seconds), then loads them in alternating windows (A B, B A, ...), each framed by MARK and REPORT,
    printing each pair's server CPU µs and bytes per request and the median of the ratios B/A."""
    import statistics
    for name in ("A", "B", "A", "B"):
        load(name, warmup_seconds)
    ratios = []
    for i in range(pairs):
        got = {}
        for name in (("A", "B") if i % 2 == 0 else ("B", "A")):
            process = servers[name][0]
            command(process, "MARK"); n = load(name, window_seconds); report = command(process, "REPORT")
            got[name] = (int(report[1]) / 1000 / n, int(report[3]) / n)
        ratios.append(got["B"][0] / got["A"][0])
        print(f"{scenario:6} pair {i:2} A {got['A'][0]:6.3f} us/req {got['A'][1]:7.1f} B/req   "
              f"B {got['B'][0]:6.3f} us/req {got['B'][1]:7.1f} B/req   B/A {ratios[-1]:.3f}", flush=True)
    print(f"{scenario:6} median B/A {statistics.median(ratios):.3f} over {pairs} pairs", flush=True)
