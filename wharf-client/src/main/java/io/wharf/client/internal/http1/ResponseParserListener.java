package io.wharf.client.internal.http1;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;

import io.wharf.client.internal.HttpExchange;
import io.wharf.client.internal.HttpResponse;
import io.wharf.http.BadMessageException;
import io.wharf.http.HttpField;
import io.wharf.http.HttpHeader;
import io.wharf.http.HttpHeaderValue;
import io.wharf.http.HttpParserListener;
import io.wharf.http.HttpStatus;
import io.wharf.http.HttpVersion;

/**
 * Turns what the HTTP/1 parser reads into the response of the current exchange and its
 * events (status, fields, headers, trailers), and tells the connection's read loop what else
 * happened: a content slice to deliver, an interim response that ended, the end of the
 * message, a failure. Every parser call that the loop must act on stops the parse, so the
 * loop acts between two parser calls, never inside one.
 *
 * <p><b>Threads.</b> Called by the connection's reading thread only (inside
 * {@code parseNext}); {@link #begin} is called by the sending thread before the request is
 * written, when nothing is being read for this connection. <b>Buffers.</b> A content slice
 * belongs to the connection's network buffer; this class only passes it on.
 */
final class ResponseParserListener implements HttpParserListener.Response {

    private HttpExchange exchange;
    /** The response being filled: the exchange's, or a fresh one for an interim 1xx. */
    private HttpResponse current;
    private boolean interim;
    /** Read by a closing thread deciding on a retry. */
    private volatile boolean received;
    private ByteBuffer content;
    private boolean interimComplete;
    private boolean messageComplete;
    private boolean persistent;
    private Throwable failure;

    /** Readies for the response of {@code next}. */
    void begin(HttpExchange next) {
        exchange = next;
        current = null;
        interim = false;
        received = false;
        content = null;
        interimComplete = false;
        messageComplete = false;
        failure = null;
    }

    /** @return whether any response byte (interim ones included) was parsed for the current exchange */
    boolean hasReceived() {
        return received;
    }

    /** @return whether the last complete response allows another exchange on the connection */
    boolean isPersistent() {
        return persistent;
    }

    /** @return the content slice the parser stopped on, once; null when none */
    ByteBuffer takeContent() {
        ByteBuffer slice = content;
        content = null;
        return slice;
    }

    /** @return whether an interim response just ended (the parser must be reset for the final one), once */
    boolean takeInterimComplete() {
        boolean done = interimComplete;
        interimComplete = false;
        return done;
    }

    /** @return whether the final response just ended, once */
    boolean takeMessageComplete() {
        boolean done = messageComplete;
        messageComplete = false;
        return done;
    }

    /** @return why the response cannot be read, once; null when nothing failed */
    Throwable takeFailure() {
        Throwable failed = failure;
        failure = null;
        return failed;
    }

    @Override
    public void startResponse(HttpVersion version, int status, String reason) {
        received = true;
        interim = HttpStatus.isInformational(status) && status != HttpStatus.SWITCHING_PROTOCOLS_101;
        persistent = version == HttpVersion.HTTP_1_1;
        if (interim) {
            current = new HttpResponse(exchange.getRequest());
            current.begin(version, status, reason);
        } else {
            current = exchange.getResponse();
            exchange.responseBegin(version, status, reason);
        }
    }

    @Override
    public void parsedHeader(HttpField field) {
        if (!interim && field.getHeader() == HttpHeader.CONNECTION) {
            if (field.contains(HttpHeaderValue.CLOSE.asString())) {
                persistent = false;
            } else if (field.contains(HttpHeaderValue.KEEP_ALIVE.asString())) {
                persistent = persistent || current.getVersion() == HttpVersion.HTTP_1_0;
            }
        }
        if (interim) {
            current.addHeader(field);
        } else {
            exchange.responseHeader(field);
        }
    }

    @Override
    public boolean headerComplete() {
        if (interim) {
            exchange.events().informational(current);
            return true;
        }
        if (current.getStatus() == HttpStatus.SWITCHING_PROTOCOLS_101) {
            persistent = false;
        }
        exchange.responseHeaders();
        return true;
    }

    /** @return whether the interim response being parsed is a 100 Continue */
    boolean isContinue() {
        return interim && current != null && current.getStatus() == HttpStatus.CONTINUE_100;
    }

    @Override
    public boolean content(ByteBuffer slice) {
        content = slice;
        return true;
    }

    @Override
    public void parsedTrailer(HttpField field) {
        if (interim) {
            current.addTrailer(field);
        } else {
            exchange.responseTrailer(field);
        }
    }

    @Override
    public boolean messageComplete() {
        if (interim) {
            interimComplete = true;
        } else {
            messageComplete = true;
        }
        return true;
    }

    @Override
    public void badMessage(BadMessageException bad) {
        failure = new IOException("bad response from " + exchange.destination().getOrigin() + ": " + bad.getReason(), bad);
        persistent = false;
    }

    @Override
    public void earlyEOF() {
        failure = new EOFException("the server closed the connection before the response to " + exchange.getRequest()
                + " was complete");
        persistent = false;
    }
}
