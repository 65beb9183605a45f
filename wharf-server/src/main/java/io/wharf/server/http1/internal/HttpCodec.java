package io.wharf.server.http1.internal;

import java.nio.ByteBuffer;

import io.wharf.http.BadMessageException;
import io.wharf.http.ComplianceViolation;
import io.wharf.http.HttpField;
import io.wharf.http.HttpFields;
import io.wharf.http.HttpGenerator;
import io.wharf.http.HttpParser;
import io.wharf.http.HttpParserListener;
import io.wharf.http.HttpVersion;
import io.wharf.server.HttpConfiguration;
import io.wharf.server.internal.UriMemory;

/**
 * The working state of an {@link HttpConnection} while it has a request under way: the
 * request parser (this is its listener), the response generator, the response writer and the
 * slow-request guard. An idle keep-alive connection holds none of it: it borrows a codec
 * from its factory's {@link HttpCodecs} when bytes arrive, and gives it back once it has
 * answered and nothing of a next request is buffered. The connection keeps only what must
 * outlive a request: the field lines its client repeats ({@link HttpParser.FieldMemory}),
 * which the parser is pointed at while lent.
 *
 * <p>Threads: a codec has one owner at a time, from {@link #lend} to {@link HttpCodecs#giveBack};
 * within that span it is used by whichever thread the owner's request loop and response
 * writes run on, one at a time, as the connection's loop state hands over. It holds no
 * pooled buffer while it is idle (a borrowed head buffer goes back when its write ends);
 * its writer's own 1 KiB head buffer is direct memory that lives as long as the codec.
 */
final class HttpCodec implements HttpParserListener.Request {

    final HttpParser parser;
    final HttpGenerator generator;
    final ResponseWrite responseWrite;
    final SlowRequestGuard guard;
    final UriMemory uriMemory = new UriMemory();
    final HttpConfiguration configuration;
    private HttpConnection owner;
    /** The fields of the request being parsed: the owner's, which outlive the lending. */
    private HttpFields.Mutable fields;
    private String method;
    private String target;
    private long beginNanos;

    HttpCodec(HttpCodecs settings) {
        this.parser = new HttpParser(this, settings.limits(), settings.compliance(), ComplianceViolation.Listener.NONE);
        this.generator = new HttpGenerator(settings.generatorOptions());
        this.responseWrite = new ResponseWrite(this);
        this.configuration = settings.configuration();
        this.guard = new SlowRequestGuard(configuration);
    }

    /** Makes {@code connection} the owner, its parser learning into {@code memory} and parsing request fields into {@code fields}. */
    void lend(HttpConnection connection, HttpParser.FieldMemory memory, HttpFields.Mutable fields) {
        owner = connection;
        this.fields = fields;
        parser.useFieldMemory(memory);
        guard.forgetArrival();
    }

    /** Forgets the owner, so that a codec waiting in the pool keeps no connection alive. */
    void free() {
        parser.useFieldMemory(null);
        owner = null;
        fields = null;
    }

    /**
     * An exchange ended: the generator, the request's fields and the guard are made ready for
     * the next request (the parser is reset apart, only when one may follow).
     */
    void endExchange() {
        generator.reset();
        fields.clear();
        guard.reset();
    }

    /** @return whether nothing of a request is under way: the codec can go back to the pool */
    boolean isIdle() {
        return parser.isStart() && guard.isIdle() && !generator.isCommitted();
    }

    /** @return the connection this codec is lent to */
    HttpConnection owner() {
        return owner;
    }

    // ---- the parser's events: request heads here, content events to the exchange ----

    @Override
    public void startRequest(String method, String target, HttpVersion version) {
        this.method = method;
        this.target = target;
        this.beginNanos = guard.arrivalNanos();
        owner.onRequestLine(version);
    }

    @Override
    public void parsedHeader(HttpField field) {
        fields.add(field);
    }

    @Override
    public boolean headerComplete() {
        // Read from the parser once, here: the exchange keeps it, and the parser may serve another
        // connection once the exchange is over.
        long length = parser.isChunking() ? -1 : Math.max(parser.getContentLength(), 0);
        guard.headComplete(length != 0);
        owner.onRequestHead(method, target, length, beginNanos, guard.arrivalNanos());
        // The exchange holds them now; an idle codec keeps no request's strings.
        method = null;
        target = null;
        return true;
    }

    @Override
    public boolean content(ByteBuffer content) {
        return owner.exchange().onContent(content);
    }

    @Override
    public boolean contentComplete() {
        return false;
    }

    @Override
    public void parsedTrailer(HttpField field) {
        owner.exchange().onTrailer(field);
    }

    @Override
    public boolean messageComplete() {
        Http1Stream exchange = owner.exchange();
        if (exchange != null) {
            exchange.onMessageComplete();
        }
        return true;
    }

    @Override
    public void badMessage(BadMessageException failure) {
        Http1Stream exchange = owner.exchange();
        if (exchange != null) {
            exchange.onBadContent(failure);
        } else {
            RequestHeadReader.refuse(owner, failure);
        }
    }

    @Override
    public void earlyEOF() {
        Http1Stream exchange = owner.exchange();
        if (exchange != null) {
            exchange.onEarlyEOF();
        }
    }
}
