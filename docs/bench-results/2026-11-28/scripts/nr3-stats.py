#!/usr/bin/env python3
"""Launch medians, after/before ratios and bootstrap intervals of an interleaved measure-http.py + measure.py log. Usage: nr3-stats.py [LOG]"""
import re,statistics,sys,random
rows=[l.split() for l in open(sys.argv[1] if len(sys.argv) > 1 else 'nr3-interleaved-wharf-only.txt') if 'us/req' in l]
# launch index: group consecutive lines by tree+scenario
data={}
launch={}
prev=None; idx={}
for r in rows:
    tree,scen=r[0],r[1]; us=float(r[r.index('us/req')-1]); b=float(r[r.index('B/req')-1])
    key=(tree,scen)
    if prev!=key:
        idx[key]=idx.get(key,0)+1
    prev=key
    data.setdefault(key,{}).setdefault(idx[key],[]).append((us,b))
for scen in ['plain','json','h2c16']:
    b=data[('before',scen)]; a=data[('final',scen)]
    bm=[statistics.median(x[0] for x in v) for k,v in sorted(b.items())]
    am=[statistics.median(x[0] for x in v) for k,v in sorted(a.items())]
    ball=[x[0] for v in b.values() for x in v]; aall=[x[0] for v in a.values() for x in v]
    ratio=statistics.median(am)/statistics.median(bm)
    # bootstrap over launches
    random.seed(1); rs=[]
    for i in range(5000):
        bb=[random.choice(bm) for _ in bm]; aa=[random.choice(am) for _ in am]
        rs.append(statistics.median(aa)/statistics.median(bb))
    rs.sort()
    bytes_b=statistics.median(x[1] for v in b.values() for x in v); bytes_a=statistics.median(x[1] for v in a.values() for x in v)
    print(f"{scen:6} before launches {[round(x,3) for x in bm]} median {statistics.median(bm):.3f}")
    print(f"{scen:6} final  launches {[round(x,3) for x in am]} median {statistics.median(am):.3f}")
    print(f"{scen:6} ratio final/before (median of launch medians) {ratio:.3f}  bootstrap 90% [{rs[250]:.3f}, {rs[4750]:.3f}]  min-of-all {min(aall)/min(ball):.3f}  bytes {bytes_b:.1f}->{bytes_a:.1f}")
