package io.wharf.websocket.client;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;

import io.wharf.http.BadMessageException;
import io.wharf.http.ComplianceViolation;
import io.wharf.http.HttpCompliance;
import io.wharf.http.HttpField;
import io.wharf.http.HttpFields;
import io.wharf.http.HttpHeader;
import io.wharf.http.HttpParser;
import io.wharf.http.HttpParserListener;
import io.wharf.http.HttpVersion;
import io.wharf.io.AbstractConnection;
import io.wharf.io.Connection;
import io.wharf.io.EndPoint;
import io.wharf.util.Callback;
import io.wharf.util.InvocationType;
import io.wharf.util.buffer.ByteBufferPool;
import io.wharf.util.buffer.RetainableByteBuffer;
import io.wharf.websocket.core.Extension;
import io.wharf.websocket.core.ExtensionConfig;
import io.wharf.websocket.core.ExtensionNegotiation;
import io.wharf.websocket.core.HandshakeKey;

/**
 * The client's side of the opening handshake (RFC 6455 section 4.1) on a fresh endpoint: it
 * writes the upgrade request, reads the answer with wharf-http's response {@link HttpParser},
 * checks it (101, {@code Upgrade: websocket}, {@code Connection: upgrade}, the
 * {@code Sec-WebSocket-Accept} of our key, a subprotocol and extensions we offered) and then
 * {@linkplain EndPoint#upgrade upgrades} the endpoint to the WebSocket connection the
 * {@link Handshake} makes, handing it the bytes that came after the answer.
 *
 * <p><b>Threads.</b> NON_BLOCKING: it runs on the selector thread (or the thread completing
 * its write). The outcome is told to the {@link Handshake} once: {@code opened} or {@code failed}.
 *
 * <p><b>Buffers.</b> One pooled buffer, taken when bytes arrive and owned by the reading
 * thread alone: {@link #onFillable} gives it back before it returns, whatever ended the read
 * (no more bytes yet, a bad answer, a close from another thread such as the handshake timeout),
 * except after a good answer, when it is handed to the next connection with what is left in it.
 * {@link #onClose} never touches it, since it may run on another thread while a read is under way.
 */
final class HandshakeConnection extends AbstractConnection implements Connection.UpgradeFrom, HttpParserListener.Response {

    /** What the handshake is for and who learns how it went. */
    interface Handshake {
        /** @return the request head to write, ASCII */
        String request(String key);

        /** @return the subprotocols offered */
        List<String> subprotocols();

        /** @return the connection that takes over the endpoint after a good answer */
        Connection upgrade(EndPoint endPoint, String subprotocol, List<Extension> extensions);

        /** The connection {@link #upgrade} made is open. */
        void opened();

        /** @return the extensions agreed from the answer, or throws IllegalArgumentException naming the problem */
        List<Extension> extensions(List<ExtensionConfig> answer);

        void failed(Throwable cause);
    }

    private final Handshake handshake;
    private final ByteBufferPool pool;
    private final String key = HandshakeKey.newKey();
    private final HttpParser parser;
    private final HttpFields.Mutable fields = HttpFields.build();
    private final AtomicBoolean done = new AtomicBoolean();
    private int status;
    private String reason;
    private boolean headersComplete;
    /** The read buffer, from a good answer until the upgrade takes it. */
    private RetainableByteBuffer leftOver;

    HandshakeConnection(EndPoint endPoint, Executor executor, ByteBufferPool pool, Handshake handshake) {
        super(endPoint, executor);
        this.pool = pool;
        this.handshake = handshake;
        this.parser = new HttpParser(this, HttpParser.Limits.DEFAULT, HttpCompliance.RFC9112, ComplianceViolation.Listener.NONE);
    }

    @Override
    public InvocationType invocationType() {
        return InvocationType.NON_BLOCKING;
    }

    @Override
    public void onOpen() {
        super.onOpen();
        ByteBuffer request = ByteBuffer.wrap(handshake.request(key).getBytes(StandardCharsets.ISO_8859_1));
        getEndPoint().write(Callback.from(InvocationType.NON_BLOCKING, this::fillInterested, this::fail), request);
    }

    @Override
    public void onFillable() {
        RetainableByteBuffer input = pool.acquire(4096, true);
        try {
            ByteBuffer buffer = input.byteBuffer();
            while (true) {
                if (!buffer.hasRemaining()) {
                    buffer.position(0).limit(0);
                    int filled = getEndPoint().fill(buffer);
                    if (filled == 0) {
                        // Given back before asking for more: the next read may begin on another thread at once.
                        input.release();
                        input = null;
                        fillInterested();
                        return;
                    }
                    if (filled < 0) {
                        parser.atEOF();
                    }
                }
                parser.parseNext(buffer);
                if (headersComplete) {
                    if (answered(input)) {
                        input = null;
                    }
                    return;
                }
                if (done.get()) {
                    return;
                }
                if (!buffer.hasRemaining() && getEndPoint().isInputShutdown()) {
                    fail(new EOFException("the server closed the connection before answering the WebSocket handshake"));
                    return;
                }
            }
        } catch (IOException | RuntimeException x) {
            fail(x);
        } finally {
            if (input != null) {
                input.release();
            }
        }
    }

    /**
     * The answer's head is here: check it, then hand the endpoint over, with {@code input} and
     * the bytes left in it after the answer.
     *
     * @return whether {@code input} was handed over
     */
    private boolean answered(RetainableByteBuffer input) {
        String problem = problem();
        if (problem != null) {
            fail(new WebSocketHandshakeException(status, "WebSocket handshake failed: " + problem));
            return false;
        }
        List<Extension> extensions;
        try {
            extensions = handshake.extensions(ExtensionConfig.parse(fields.getValuesList(HttpHeader.SEC_WEBSOCKET_EXTENSIONS)));
        } catch (IllegalArgumentException x) {
            fail(new WebSocketHandshakeException(status, "WebSocket handshake failed: " + x.getMessage()));
            return false;
        }
        if (!done.compareAndSet(false, true)) {
            ExtensionNegotiation.close(extensions);
            return false;
        }
        String subprotocol = fields.get(HttpHeader.SEC_WEBSOCKET_PROTOCOL);
        Connection next = handshake.upgrade(getEndPoint(), subprotocol, extensions);
        // Taken by onUpgradeFrom, on this thread, during the upgrade.
        leftOver = input;
        getEndPoint().upgrade(next);
        handshake.opened();
        return true;
    }

    /** @return what is wrong with the answer, or null */
    private String problem() {
        if (status != 101) {
            return "the server answered " + status + " " + reason + " instead of 101 Switching Protocols";
        }
        if (!fields.contains(HttpHeader.UPGRADE, "websocket")) {
            return "the 101 answer's Upgrade is not websocket: " + fields.get(HttpHeader.UPGRADE);
        }
        if (!fields.contains(HttpHeader.CONNECTION, "upgrade")) {
            return "the 101 answer's Connection does not name upgrade: " + fields.get(HttpHeader.CONNECTION);
        }
        String accept = fields.get(HttpHeader.SEC_WEBSOCKET_ACCEPT);
        if (!HandshakeKey.accept(key).equals(accept)) {
            return "bad Sec-WebSocket-Accept " + accept + " (expected " + HandshakeKey.accept(key) + ")";
        }
        List<String> protocols = fields.getValuesList(HttpHeader.SEC_WEBSOCKET_PROTOCOL);
        if (protocols.size() > 1 || protocols.size() == 1 && !handshake.subprotocols().contains(protocols.get(0))) {
            return "the server picked subprotocol " + protocols + ", which was not offered (offered: " + handshake.subprotocols() + ")";
        }
        return null;
    }

    private void fail(Throwable cause) {
        if (done.compareAndSet(false, true)) {
            handshake.failed(cause);
            getEndPoint().close(cause);
        }
    }

    @Override
    public RetainableByteBuffer onUpgradeFrom() {
        RetainableByteBuffer rest = leftOver;
        leftOver = null;
        if (rest != null && !rest.hasRemaining()) {
            rest.release();
            return null;
        }
        return rest;
    }

    @Override
    public void onClose(Throwable cause) {
        super.onClose(cause);
        fail(cause != null ? cause : new ClosedChannelException());
    }

    @Override
    public void startResponse(HttpVersion version, int status, String reason) {
        this.status = status;
        this.reason = reason;
    }

    @Override
    public void parsedHeader(HttpField field) {
        fields.add(field);
    }

    @Override
    public boolean headerComplete() {
        headersComplete = true;
        return true;
    }

    @Override
    public boolean content(ByteBuffer content) {
        return false;
    }

    @Override
    public boolean messageComplete() {
        return true;
    }

    @Override
    public void badMessage(BadMessageException failure) {
        fail(new WebSocketHandshakeException(status, "WebSocket handshake failed: bad answer from the server: " + failure.getMessage()));
    }

    @Override
    public void earlyEOF() {
        fail(new EOFException("the server closed the connection before answering the WebSocket handshake"));
    }

    @Override
    public String toString() {
        return "HandshakeConnection@" + Integer.toHexString(hashCode()) + "{" + getEndPoint() + "}";
    }
}
