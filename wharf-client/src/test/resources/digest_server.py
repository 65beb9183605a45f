#!/usr/bin/env python3
"""A small HTTP/1.1 server that asks for Digest authentication (RFC 7616), for Wharf's client tests.

Wharf's own server has no Digest support, so DigestAuthenticationServerTest starts this one on a
free loopback port: it prints "PORT <n>" once it listens and runs until its standard input
closes. Written from the RFC with the standard library only.

User "ann", password "s3cret", realm "wharf-test". Paths:
  /md5/...      challenge with algorithm=MD5, qop="auth"
  /sha256/...   challenge with algorithm=SHA-256, qop="auth"
  /both/...     two challenges, MD5 first, then SHA-256 (a client should pick SHA-256)
  /legacy/...   RFC 2069: MD5 without qop
  /expire       every nonce issued so far becomes stale (answered 401 stale=true)
  /stats        "challenges=C stale=S ok=K replays=R" since the start
Anything authenticated is answered 200 "ok <user> <algorithm> nc=<nc> <path>".
A nonce count already used with a nonce is a replay: 401.
"""

import hashlib
import os
import re
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

USER = "ann"
PASSWORD = "s3cret"
REALM = "wharf-test"
HASHES = {"MD5": hashlib.md5, "SHA-256": hashlib.sha256}

lock = threading.Lock()
nonces = {}  # nonce -> {"stale": bool, "counts": set()}
stats = {"challenges": 0, "stale": 0, "ok": 0, "replays": 0}

PARAM = re.compile(r'\s*([A-Za-z0-9_-]+)\s*=\s*("((?:[^"\\]|\\.)*)"|[^,\s]*)\s*,?')


def hash_hex(algorithm, text):
    return HASHES[algorithm](text.encode("utf-8")).hexdigest()


def parse_digest(value):
    if not value or not value.startswith("Digest "):
        return None
    params = {}
    for match in PARAM.finditer(value[len("Digest "):]):
        name = match.group(1).lower()
        raw = match.group(3) if match.group(3) is not None else match.group(2)
        params[name] = re.sub(r"\\(.)", r"\1", raw)
    return params


def new_nonce():
    nonce = os.urandom(16).hex()
    with lock:
        nonces[nonce] = {"stale": False, "counts": set()}
    return nonce


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, format, *args):
        pass

    def answer(self, status, body, challenges=()):
        data = body.encode("utf-8")
        self.send_response(status)
        for challenge in challenges:
            self.send_header("WWW-Authenticate", challenge)
        self.send_header("Content-Type", "text/plain; charset=utf-8")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def challenge(self, algorithms, qop=True, stale=False):
        with lock:
            stats["challenges"] += 1
            if stale:
                stats["stale"] += 1
        headers = []
        for algorithm in algorithms:
            header = 'Digest realm="%s", nonce="%s", algorithm=%s, opaque="wharf-opaque"' % (
                REALM, new_nonce(), algorithm)
            if qop:
                header += ', qop="auth"'
            if stale:
                header += ", stale=true"
            headers.append(header)
        self.answer(401, "authenticate", headers)

    def handle_any(self):
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else b""
        path = self.path
        if path == "/expire":
            with lock:
                for state in nonces.values():
                    state["stale"] = True
            self.answer(200, "expired")
            return
        if path == "/stats":
            with lock:
                text = "challenges=%d stale=%d ok=%d replays=%d" % (
                    stats["challenges"], stats["stale"], stats["ok"], stats["replays"])
            self.answer(200, text)
            return
        section = path.split("/")[1] if path.count("/") >= 1 else ""
        offered = {"md5": ["MD5"], "sha256": ["SHA-256"], "both": ["MD5", "SHA-256"], "legacy": ["MD5"]}.get(section)
        if offered is None:
            self.answer(404, "no such path")
            return
        qop = section != "legacy"
        params = parse_digest(self.headers.get("Authorization"))
        if params is None:
            self.challenge(offered, qop)
            return
        algorithm = params.get("algorithm", "MD5")
        nonce = params.get("nonce")
        with lock:
            state = nonces.get(nonce)
        if (algorithm not in offered or state is None or params.get("username") != USER
                or params.get("realm") != REALM or params.get("uri") != path
                or params.get("opaque") != "wharf-opaque"):
            self.challenge(offered, qop)
            return
        ha1 = hash_hex(algorithm, "%s:%s:%s" % (USER, REALM, PASSWORD))
        ha2 = hash_hex(algorithm, "%s:%s" % (self.command, path))
        if qop:
            if params.get("qop") != "auth" or "nc" not in params or "cnonce" not in params:
                self.challenge(offered, qop)
                return
            expected = hash_hex(algorithm, "%s:%s:%s:%s:%s:%s" % (
                ha1, nonce, params["nc"], params["cnonce"], "auth", ha2))
        else:
            expected = hash_hex(algorithm, "%s:%s:%s" % (ha1, nonce, ha2))
        if params.get("response") != expected:
            self.challenge(offered, qop)
            return
        if state["stale"]:
            self.challenge(offered, qop, stale=True)
            return
        count = params.get("nc", "")
        with lock:
            if qop and count in state["counts"]:
                stats["replays"] += 1
                replay = True
            else:
                state["counts"].add(count)
                stats["ok"] += 1
                replay = False
        if replay:
            self.challenge(offered, qop)
            return
        self.answer(200, "ok %s %s nc=%s %s%s" % (USER, algorithm, count, path,
                                                  " body=" + body.decode("utf-8") if body else ""))

    do_GET = handle_any
    do_POST = handle_any
    do_PUT = handle_any


def main():
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    print("PORT %d" % server.server_address[1], flush=True)
    # Runs until the test closes our standard input (or ends the process).
    sys.stdin.read()
    server.shutdown()


if __name__ == "__main__":
    main()
