#!/usr/bin/env python3
"""Self and inclusive shares of the methods in a recording's execution samples, side by side for several recordings.
Usage: jfrtop.py [-n N] [-f FILTER] A.jfr [B.jfr ...]   (FILTER: only methods whose name contains it)"""
import collections, json, subprocess, sys

def shares(path):
    out = subprocess.run(["jfr", "print", "--json", "--stack-depth", "64", "--events", "jdk.ExecutionSample", path],
                         capture_output=True, text=True, check=True).stdout
    events = json.loads(out)["recording"]["events"]
    own, total = collections.Counter(), collections.Counter()
    for event in events:
        frames = event["values"]["stackTrace"]["frames"]
        names = [f["method"]["type"]["name"].split(".")[-1] + "." + f["method"]["name"] for f in frames]
        if names:
            own[names[0]] += 1
        for name in set(names):
            total[name] += 1
    n = max(len(events), 1)
    return {k: 100 * v / n for k, v in own.items()}, {k: 100 * v / n for k, v in total.items()}, len(events)

args = sys.argv[1:]
top, only = 30, ""
while args and args[0].startswith("-"):
    flag, value, args = args[0], args[1], args[2:]
    if flag == "-n": top = int(value)
    if flag == "-f": only = value
results = [shares(p) for p in args]
print("samples:", " ".join(str(r[2]) for r in results))
for title, index in (("self %", 0), ("inclusive %", 1)):
    keys = collections.Counter()
    for r in results:
        for k, v in r[index].items():
            if only in k:
                keys[k] = max(keys[k], v)
    print(f"\n{title:>12}  " + "  ".join(f"{p.split('/')[-1][:10]:>10}" for p in args))
    for k, _ in keys.most_common(top):
        print(f"{'':12}  " + "  ".join(f"{r[index].get(k, 0):10.2f}" for r in results) + "  " + k)
