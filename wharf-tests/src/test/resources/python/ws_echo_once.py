"""Opens a WebSocket with Python's websockets library, with HTTP Basic credentials when given,
sends one text message and prints the answer; or prints "refused STATUS" when the handshake is
answered with an HTTP status instead. Used by ServletSecurityRealClientsTest.

    python ws_echo_once.py URI TEXT [CA_FILE] [USER:PASSWORD]
"""
import base64
import ssl
import sys

from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

URI, TEXT = sys.argv[1], sys.argv[2]
CA_FILE = sys.argv[3] if len(sys.argv) > 3 and sys.argv[3] else None
CREDENTIALS = sys.argv[4] if len(sys.argv) > 4 else None
context = ssl.create_default_context(cafile=CA_FILE) if URI.startswith("wss:") else None
headers = {"Authorization": "Basic " + base64.b64encode(CREDENTIALS.encode()).decode()} if CREDENTIALS else None

try:
    with connect(URI, ssl=context, additional_headers=headers, open_timeout=10, close_timeout=10) as socket:
        socket.send(TEXT)
        print(socket.recv(timeout=10), flush=True)
except InvalidStatus as refused:
    print("refused %d" % refused.response.status_code, flush=True)
