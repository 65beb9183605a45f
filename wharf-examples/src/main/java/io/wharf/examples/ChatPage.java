package io.wharf.examples;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * The demo's {@code /chat} page: a join box, the message list and a send box. Its script
 * connects to {@code /chat/ws} with {@code ws://} or {@code wss://} as the page was loaded,
 * shows every message with {@code textContent} (never as HTML), says why a connection closed,
 * and after a drop reconnects with back-off (1 s doubling to 30 s). See {@link ChatRoom}.
 */
final class ChatPage {

    /** The page, UTF-8. */
    static final ByteBuffer HTML = ByteBuffer.wrap("""
            <!DOCTYPE html>
            <html lang="en">
            <head><meta charset="utf-8"><title>Wharf chat</title><link rel="stylesheet" href="/style.css">
            <style>
            #log { list-style: none; padding: 0; min-height: 12rem; border: 1px solid #ccc; padding: .5rem; }
            #log .join, #log .leave, #log .status { color: #777; font-style: italic; }
            </style></head>
            <body>
            <h1>Wharf chat</h1>
            <form id="join"><input id="name" placeholder="your name" maxlength="24" required autofocus> <button>Join</button></form>
            <div id="room" hidden>
            <ul id="log"></ul>
            <form id="say"><input id="text" size="50" maxlength="2000" autocomplete="off" required> <button>Send</button></form>
            </div>
            <p id="status"></p>
            <script>
            "use strict";
            const log = document.getElementById("log");
            const statusLine = document.getElementById("status");
            let socket = null, name = "", delay = 1000, leaving = false, joined = false;

            function line(text, kind) {
              const item = document.createElement("li");
              item.textContent = text;          // text, never HTML
              item.className = kind;
              log.appendChild(item);
              item.scrollIntoView();
            }

            function connect() {
              const scheme = location.protocol === "https:" ? "wss:" : "ws:";
              socket = new WebSocket(scheme + "//" + location.host + "/chat/ws?name=" + encodeURIComponent(name));
              socket.onopen = () => { joined = true; delay = 1000; statusLine.textContent = "connected as " + name; };
              socket.onmessage = event => {
                const m = JSON.parse(event.data);
                if (m.type === "message") line(m.from + ": " + m.text, "message");
                else line(m.name + (m.type === "join" ? " joined" : " left") + " (" + m.members + " here)", m.type);
              };
              socket.onclose = event => {
                socket = null;
                if (leaving) return;
                if (!joined) {                      // refused at once: most likely the name
                  document.getElementById("room").hidden = true;
                  document.getElementById("join").hidden = false;
                  statusLine.textContent = "could not join as " + name + ": use 1 to 24 letters, digits, spaces, _ or -";
                  return;
                }
                const why = "closed (" + event.code + (event.reason ? ": " + event.reason : "") + ")";
                if (event.code === 1000 || event.code === 1009) {
                  statusLine.textContent = why;   // a normal end, or a message over the limit: no retry
                  return;
                }
                statusLine.textContent = why + ", reconnecting in " + delay / 1000 + " s";
                setTimeout(connect, delay);
                delay = Math.min(delay * 2, 30000);
              };
            }

            document.getElementById("join").onsubmit = event => {
              event.preventDefault();
              name = document.getElementById("name").value.trim();
              if (!name) return;
              document.getElementById("join").hidden = true;
              document.getElementById("room").hidden = false;
              connect();
            };

            document.getElementById("say").onsubmit = event => {
              event.preventDefault();
              const input = document.getElementById("text");
              if (socket && socket.readyState === WebSocket.OPEN && input.value) {
                socket.send(input.value);
                input.value = "";
              }
            };

            window.addEventListener("beforeunload", () => { leaving = true; if (socket) socket.close(1000); });
            </script>
            </body>
            </html>
            """.getBytes(StandardCharsets.UTF_8)).asReadOnlyBuffer();

    private ChatPage() {
    }
}
