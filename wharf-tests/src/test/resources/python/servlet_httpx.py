"""Drives a Wharf servlet context with httpx over HTTP/2 and TLS, as a browser-like client
would: a session kept by its cookie across requests, a urlencoded form, a multipart upload, and
the protocol each answer came over. Prints one line a request. Used by ServletRealClientsTest.

    python servlet_httpx.py BASE_URL CA_FILE
"""
import sys

import httpx

BASE, CA_FILE = sys.argv[1], sys.argv[2]

with httpx.Client(http2=True, verify=CA_FILE) as client:
    for _ in range(2):
        answer = client.get(BASE + "/count")
        print(answer.http_version, answer.status_code, answer.text)
    answer = client.post(BASE + "/form?q=query", data={"name": "wharf", "lang": "java"})
    print(answer.http_version, answer.status_code, answer.text)
    answer = client.post(BASE + "/upload", files={"file": ("a.txt", b"file content")}, data={"note": "n"})
    print(answer.http_version, answer.status_code, answer.text)
