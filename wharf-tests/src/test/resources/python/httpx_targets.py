"""Sends the request targets without a path with httpx over HTTP/2 (TLS, ALPN h2 only) and
prints one line each: "OPTIONS * <version> <status> allow=<Allow>", and for CONNECT, which
httpx sends with :scheme and :path (malformed for a CONNECT, RFC 9113 section 8.5), either
the same or "RST_STREAM <error code>" when the server resets the stream. Used by PythonClientsTest.

    python httpx_targets.py ORIGIN CA_FILE
"""
import ssl
import sys

import h2.events
import httpcore
import httpx

ORIGIN, CA_FILE = sys.argv[1], sys.argv[2]
context = ssl.create_default_context(cafile=CA_FILE)


def send(client, method, target):
    try:
        response = client.request(method, ORIGIN + "/", extensions={"target": target.encode()}, timeout=10)
        return "%s %s %s %d allow=%s" % (method, target, response.http_version, response.status_code,
                                          response.headers.get("allow"))
    except httpx.RemoteProtocolError as error:
        # httpx wraps httpcore's error, whose argument is h2's StreamReset event.
        reset = error.__cause__.args[0] if isinstance(error.__cause__, httpcore.RemoteProtocolError) else None
        if not isinstance(reset, h2.events.StreamReset):
            raise
        return "%s %s HTTP/2 RST_STREAM %s" % (method, target, reset.error_code.name)


with httpx.Client(http1=False, http2=True, verify=context) as client:
    print(send(client, "OPTIONS", "*"), flush=True)
    print(send(client, "CONNECT", "127.0.0.1:22"), flush=True)
