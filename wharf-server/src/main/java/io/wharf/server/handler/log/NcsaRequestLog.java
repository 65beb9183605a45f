package io.wharf.server.handler.log;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

import io.wharf.http.HttpHeader;
import io.wharf.http.HttpURI;
import io.wharf.server.Request;
import io.wharf.server.Response;
import io.wharf.util.component.AbstractLifeCycle;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A {@link RequestLog} writing the NCSA combined format, one line per request, plus the
 * duration in milliseconds:
 * <pre>
 * 192.0.2.7 - - [10/Oct/2025:13:55:36 +0000] "GET /index.html?q=1 HTTP/1.1" 200 2326 "https://example.com/" "curl/8.5" 12
 * </pre>
 * Fields: client address, ident ({@code -}), user ({@code -}: there is no authentication
 * yet), the time the request completed (like nginx's {@code $time_local}) in the clock's
 * zone, the request line as received (raw path and query), the status, the response content
 * bytes ({@code -} for none), the Referer and the User-Agent ({@code -} when absent) and the
 * duration.
 *
 * <p><b>Log-injection safe.</b> Every value that came from the peer is written as printable
 * ASCII: {@code "} and {@code \} are escaped with {@code \}, and any other byte outside
 * {@code 0x20..0x7E} (controls, CR, LF, DEL, non-ASCII) is written as {@code \xHH}; each such
 * value is cut at {@link #MAX_FIELD_LENGTH} characters. A line therefore never spans lines or
 * fakes another field.
 *
 * <p><b>Off the request path.</b> {@link #log} formats the line on the calling thread — which
 * must not block, and may be a selector thread — and offers it to a bounded queue; when the
 * queue is full, or the log is not running, the line is dropped and counted
 * ({@link #getDropped()}), never waited for. A dedicated writer thread, started and stopped
 * with this log, takes lines from the queue and writes them to the {@link RequestLogOutput},
 * flushing whenever the queue runs empty. Stopping drains the queue (waiting up to
 * {@link #setStopTimeout(Duration) the stop timeout}) and closes the output.
 */
public class NcsaRequestLog extends AbstractLifeCycle implements RequestLog {

    /** The longest a peer-supplied value (request line, Referer, User-Agent) is logged, in characters. */
    public static final int MAX_FIELD_LENGTH = 2048;
    /** The default capacity of the queue, in lines. */
    public static final int DEFAULT_QUEUE_CAPACITY = 4096;

    private static final Logger LOG = LoggerFactory.getLogger(NcsaRequestLog.class);
    private static final AtomicInteger WRITERS = new AtomicInteger();
    private static final DateTimeFormatter DATE = DateTimeFormatter.ofPattern("dd/MMM/yyyy:HH:mm:ss Z", Locale.US);
    private static final char[] HEX = "0123456789ABCDEF".toCharArray();
    /** Put in the queue, compared by identity, to tell the writer to finish. */
    private static final String STOP = new String("stop");

    private final RequestLogOutput output;
    private final Clock clock;
    private final BlockingQueue<String> queue;
    private final LongAdder dropped = new LongAdder();
    private final LongAdder written = new LongAdder();
    private final LongAdder writeFailures = new LongAdder();
    private volatile boolean accepting;
    private volatile Duration stopTimeout = Duration.ofSeconds(10);
    private Thread writer;

    /** A log writing to {@code output} with the system clock and zone and the default queue capacity. */
    public NcsaRequestLog(RequestLogOutput output) {
        this(output, DEFAULT_QUEUE_CAPACITY, Clock.systemDefaultZone());
    }

    /**
     * @param output where the writer thread writes
     * @param queueCapacity the most lines waiting for the writer; more are dropped
     * @param clock the clock and zone of the logged times
     */
    public NcsaRequestLog(RequestLogOutput output, int queueCapacity, Clock clock) {
        if (queueCapacity < 1) {
            throw new IllegalArgumentException("request log queue capacity must be at least 1, not " + queueCapacity);
        }
        this.output = Objects.requireNonNull(output, "output");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.queue = new ArrayBlockingQueue<>(queueCapacity);
    }

    /** @return the lines dropped because the queue was full or the log was not running */
    public long getDropped() {
        return dropped.sum();
    }

    /** @return the lines the writer thread wrote */
    public long getWritten() {
        return written.sum();
    }

    /** @return the lines the output failed to write */
    public long getWriteFailures() {
        return writeFailures.sum();
    }

    /** @return how long stopping waits for the queue to drain (default 10 s) */
    public Duration getStopTimeout() {
        return stopTimeout;
    }

    public void setStopTimeout(Duration stopTimeout) {
        this.stopTimeout = Objects.requireNonNull(stopTimeout, "stopTimeout");
    }

    @Override
    public void log(Request request, Response response, Outcome outcome) {
        if (!accepting) {
            dropped.increment();
            return;
        }
        if (!queue.offer(format(request, outcome))) {
            dropped.increment();
        }
    }

    /** @return the line for one request, without a line terminator */
    String format(Request request, Outcome outcome) {
        StringBuilder line = new StringBuilder(160);
        String address = Request.getRemoteAddress(request);
        appendEscaped(line, address);
        line.append(" - - [");
        DATE.formatTo(ZonedDateTime.now(clock), line);
        line.append("] \"");
        HttpURI uri = request.getHttpURI();
        String target = uri.getPathQuery() != null ? uri.getPathQuery() : uri.getAuthority();
        appendEscaped(line, request.getMethod() + " " + target + " "
                + request.getConnectionMetaData().getHttpVersion().asString());
        line.append("\" ").append(outcome.status()).append(' ');
        if (outcome.bytesWritten() > 0) {
            line.append(outcome.bytesWritten());
        } else {
            line.append('-');
        }
        line.append(" \"");
        appendEscaped(line, request.getHeaders().get(HttpHeader.REFERER));
        line.append("\" \"");
        appendEscaped(line, request.getHeaders().get(HttpHeader.USER_AGENT));
        line.append("\" ").append(TimeUnit.NANOSECONDS.toMillis(outcome.durationNanos()));
        return line.toString();
    }

    /** Appends {@code value} as printable ASCII, escaped and cut as the class describes; {@code -} when null or empty. */
    static void appendEscaped(StringBuilder out, String value) {
        if (value == null || value.isEmpty()) {
            out.append('-');
            return;
        }
        int length = Math.min(value.length(), MAX_FIELD_LENGTH);
        for (int i = 0; i < length; i++) {
            char c = value.charAt(i);
            if (c == '"' || c == '\\') {
                out.append('\\').append(c);
            } else if (c >= 0x20 && c < 0x7F) {
                out.append(c);
            } else if (c <= 0xFF) {
                // Header values hold ISO-8859-1: the char is the byte received.
                appendHexByte(out, c);
            } else {
                int codePoint = value.codePointAt(i);
                for (byte b : Character.toString(codePoint).getBytes(StandardCharsets.UTF_8)) {
                    appendHexByte(out, b & 0xFF);
                }
                i += Character.charCount(codePoint) - 1;
            }
        }
        if (value.length() > length) {
            out.append("...");
        }
    }

    private static void appendHexByte(StringBuilder out, int b) {
        out.append("\\x").append(HEX[b >> 4]).append(HEX[b & 0xF]);
    }

    @Override
    protected void doStart() throws Exception {
        queue.clear();
        writer = new Thread(this::writeLines, "wharf-request-log-" + WRITERS.incrementAndGet());
        writer.setDaemon(true);
        accepting = true;
        writer.start();
    }

    @Override
    protected void doStop() throws Exception {
        accepting = false;
        Thread thread = writer;
        writer = null;
        try {
            long waitNanos = stopTimeout.toNanos();
            long deadline = System.nanoTime() + waitNanos;
            // Nothing is added any more, so the queue only drains and STOP finds room.
            if (!queue.offer(STOP, waitNanos, TimeUnit.NANOSECONDS)) {
                LOG.warn("{} stops with {} lines not written after {}", this, queue.size(), stopTimeout);
                thread.interrupt();
            }
            thread.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
            if (thread.isAlive()) {
                thread.interrupt();
                thread.join(stopTimeout.toMillis());
            }
        } finally {
            dropped.add(queue.size());
            queue.clear();
        }
    }

    /** The writer thread's loop: lines until STOP, then the output is closed. */
    private void writeLines() {
        try {
            while (true) {
                String line = queue.take();
                if (line == STOP) {
                    break;
                }
                try {
                    output.write(line);
                    written.increment();
                    if (queue.isEmpty()) {
                        output.flush();
                    }
                } catch (IOException | RuntimeException x) {
                    writeFailures.increment();
                    if (writeFailures.sum() == 1) {
                        LOG.warn("{} could not write to {}; later failures are only counted", this, output, x);
                    }
                }
            }
            output.flush();
        } catch (InterruptedException x) {
            LOG.debug("{} writer interrupted", this);
        } catch (IOException | RuntimeException x) {
            LOG.warn("{} could not flush {}", this, output, x);
        } finally {
            try {
                output.close();
            } catch (Exception x) {
                LOG.warn("{} could not close {}", this, output, x);
            }
        }
    }

    @Override
    public String toString() {
        return getClass().getSimpleName() + "@" + Integer.toHexString(hashCode()) + "{" + state() + ", output=" + output
                + ", queued=" + queue.size() + ", written=" + getWritten() + ", dropped=" + getDropped() + "}";
    }
}
