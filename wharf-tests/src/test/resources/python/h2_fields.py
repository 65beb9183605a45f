"""Sends requests with malformed fields (RFC 9113 section 8.2) to a server with Python's h2
library, its own checks turned off, one connection a request, and prints one line a request:
its name and what the server answered (":status N", "RST_STREAM <code>", "GOAWAY <code>",
or "closed" / "timeout"). Used by PythonClientsTest.

    python h2_fields.py HOST PORT plain|tls [CA_FILE]
"""
import socket
import ssl
import sys

import h2.config
import h2.connection
import h2.events

HOST, PORT, MODE = sys.argv[1], int(sys.argv[2]), sys.argv[3]
CA_FILE = sys.argv[4] if len(sys.argv) > 4 else None
AUTHORITY = "localhost:%d" % PORT


def request(method, *extra):
    return [(":method", method), (":scheme", "https" if MODE == "tls" else "http"),
            (":authority", AUTHORITY), (":path", "/hello")] + list(extra)


# (name, fields, whether the HEADERS frame ends the stream)
CASES = [
    ("good", request("GET"), True),
    ("space-in-name", request("GET", ("bad name", "x")), True),
    ("crlf-in-value", request("GET", ("x-test", "a\r\nb")), True),
    ("upper-case-name", request("GET", ("X-Upper", "x")), True),
    ("lower-case-name", request("GET", ("x-upper", "x")), True),
    ("host-not-authority", request("GET", ("host", "other.example:1")), True),
    ("host-is-authority", request("GET", ("host", AUTHORITY)), True),
    ("content-length-5-end-stream", request("POST", ("content-length", "5")), True),
]


def connect():
    raw = socket.create_connection((HOST, PORT), timeout=10)
    if MODE != "tls":
        return raw
    context = ssl.create_default_context(cafile=CA_FILE)
    context.set_alpn_protocols(["h2"])
    sock = context.wrap_socket(raw, server_hostname="localhost")
    if sock.selected_alpn_protocol() != "h2":
        raise SystemExit("ALPN chose %r, not h2" % sock.selected_alpn_protocol())
    return sock


def answer(fields, end_stream):
    sock = connect()
    try:
        config = h2.config.H2Configuration(client_side=True, validate_outbound_headers=False,
                                           normalize_outbound_headers=False, validate_inbound_headers=False)
        connection = h2.connection.H2Connection(config=config)
        connection.initiate_connection()
        stream = connection.get_next_available_stream_id()
        connection.send_headers(stream, [(n.encode(), v.encode()) for n, v in fields], end_stream=end_stream)
        sock.sendall(connection.data_to_send())
        while True:
            try:
                data = sock.recv(65536)
            except socket.timeout:
                return "timeout"
            if not data:
                return "closed"
            for event in connection.receive_data(data):
                if isinstance(event, h2.events.ResponseReceived) and event.stream_id == stream:
                    return ":status " + dict(event.headers)[b":status"].decode()
                if isinstance(event, h2.events.StreamReset) and event.stream_id == stream:
                    return "RST_STREAM " + event.error_code.name
                if isinstance(event, h2.events.ConnectionTerminated):
                    return "GOAWAY " + event.error_code.name
            sock.sendall(connection.data_to_send())
    finally:
        sock.close()


for name, fields, end_stream in CASES:
    print(name, answer(fields, end_stream), flush=True)
