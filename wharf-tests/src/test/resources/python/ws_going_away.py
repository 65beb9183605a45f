"""Joins a WebSocket chat room with Python's websockets library, prints "open" once it has
received its own join announcement, then reads until the server closes the connection and
prints "closed CODE REASON" (the close frame the server sent; "closed none" when it sent none).
Used by PythonClientsTest, which stops the server in between.

    python ws_going_away.py URI [CA_FILE]
"""
import ssl
import sys

from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

URI = sys.argv[1]
CA_FILE = sys.argv[2] if len(sys.argv) > 2 else None
context = ssl.create_default_context(cafile=CA_FILE) if URI.startswith("wss:") else None

with connect(URI, ssl=context, open_timeout=10, close_timeout=10) as socket:
    print("joined " + socket.recv(timeout=10), flush=True)
    print("open", flush=True)
    try:
        while True:
            socket.recv(timeout=30)
    except ConnectionClosed as closed:
        print("closed " + ("none" if closed.rcvd is None else "%d %s" % (closed.rcvd.code, closed.rcvd.reason)), flush=True)
