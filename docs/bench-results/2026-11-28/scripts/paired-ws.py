#!/usr/bin/env python3
"""WebSocket echo, two bench servers (wharf-ws) of trees A and B alive at once, both on CPU 0; this script's own
asyncio load on CPU 1 (raw frames: 5-byte masked text messages, CONNS connections each keeping INFLIGHT in flight)
loads one then the other in alternating 5 s windows (A B B A ...). Prints each window's server CPU per message and the
median of the per-pair ratios B/A. Usage: paired-ws.py TREE_A TREE_B PAIRS [CONNS INFLIGHT]"""
import asyncio, base64, os, statistics, sys, time
import benchserver
tree_a, tree_b, pairs = sys.argv[1], sys.argv[2], int(sys.argv[3])
conns, inflight = (int(sys.argv[4]), int(sys.argv[5])) if len(sys.argv) > 5 else (64, 16)
os.sched_setaffinity(0, {1})
FRAME = bytes([0x81, 0x85, 1, 2, 3, 4]) + bytes(b ^ m for b, m in zip(b"hello", b"\x01\x02\x03\x04\x01"))
ECHO = 7  # 0x81 0x05 and five bytes

async def connect(port):
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    key = base64.b64encode(os.urandom(16)).decode()
    writer.write((f"GET /echo HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                  f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
    head = await reader.readuntil(b"\r\n\r\n")
    if not head.startswith(b"HTTP/1.1 101"):
        raise RuntimeError(head.decode(errors="replace"))
    return reader, writer

async def pump(reader, writer, until, counter):
    writer.write(FRAME * inflight)
    pending, due = 0, inflight
    while True:
        data = await reader.read(65536)
        if not data:
            raise RuntimeError("closed")
        pending += len(data)
        done = pending // ECHO
        pending -= done * ECHO
        due -= done
        counter[0] += done
        if time.monotonic() < until:
            writer.write(FRAME * done)
            due += done
        elif due == 0:
            return

async def window(name, sockets, secs):
    counter = [0]
    until = time.monotonic() + secs
    await asyncio.gather(*(pump(r, w, until, counter) for r, w in sockets[name]))
    return counter[0]

async def main():
    servers = {name: benchserver.start(tree, "wharf-ws") for name, tree in (("A", tree_a), ("B", tree_b))}
    try:
        sockets = {name: [await connect(ports["H1"]) for _ in range(conns)] for name, (p, ports) in servers.items()}
        for name in ("A", "B", "A", "B"):
            await window(name, sockets, 8)
        ratios = []
        for i in range(pairs):
            got = {}
            for name in (("A", "B") if i % 2 == 0 else ("B", "A")):
                p = servers[name][0]
                benchserver.command(p, "MARK"); n = await window(name, sockets, 5); rep = benchserver.command(p, "REPORT")
                got[name] = (int(rep[1]) / 1000 / n, int(rep[3]) / n, n / 5)
            ratios.append(got["B"][0] / got["A"][0])
            print(f"ws{conns}x{inflight} pair {i:2} A {got['A'][0]:6.3f} us/msg {got['A'][1]:6.1f} B/msg {got['A'][2]:7.0f}/s   "
                  f"B {got['B'][0]:6.3f} us/msg {got['B'][1]:6.1f} B/msg {got['B'][2]:7.0f}/s   B/A {ratios[-1]:.3f}", flush=True)
        print(f"ws{conns}x{inflight} median B/A {statistics.median(ratios):.3f} over {pairs} pairs", flush=True)
        for name in sockets:
            for r, w in sockets[name]:
                w.close()
    finally:
        for p, _ in servers.values():
            p.stdin.close(); p.wait(10)

asyncio.run(main())
