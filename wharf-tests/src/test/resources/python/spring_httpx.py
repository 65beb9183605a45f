"""Drives the Spring MVC test application on Wharf with httpx over HTTP/2 and TLS: a JSON round
trip, a validation error, a multipart upload, and a stream of server-sent events that a second
request on the same connection releases while the stream is open. Prints one line a step. Used by
SpringMvcTest.

    python spring_httpx.py BASE_URL CA_FILE
"""
import sys

import httpx

BASE, CA_FILE = sys.argv[1], sys.argv[2]


def next_event(lines):
    """Reads one event's fields up to its blank line; None at the end of the stream."""
    fields = {}
    for line in lines:
        if line == "":
            return fields
        name, _, value = line.partition(":")
        fields[name] = value
    return None


with httpx.Client(http2=True, verify=CA_FILE, timeout=20) as client:
    answer = client.post(BASE + "/api/items", json={"name": "winch", "price": 7})
    print(answer.http_version, answer.status_code, answer.json()["name"], answer.json()["price"])
    answer = client.post(BASE + "/api/items", json={"name": "w" * 21, "price": 7})
    print(answer.http_version, answer.status_code, answer.text)
    answer = client.post(BASE + "/api/upload", files={"file": ("a.txt", b"file content")}, data={"note": "n"})
    print(answer.http_version, answer.status_code, answer.json()["filename"], answer.json()["size"], answer.json()["note"])
    with client.stream("GET", BASE + "/api/events", params={"stream": "httpx"},
                       headers={"Accept": "text/event-stream"}) as events:
        lines = events.iter_lines()
        first = next_event(lines)
        print(events.http_version, events.status_code, events.headers["content-type"].split(";")[0],
              "event:", first["event"], first["data"])
        released = client.post(BASE + "/api/events/release", params={"stream": "httpx"})
        print(released.http_version, released.status_code, "released")
        while (event := next_event(lines)) is not None:
            print("event:", event["event"], event["data"])
    print("end of stream")
