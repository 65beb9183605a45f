package io.wharf.server.handler.log;

import java.io.Flushable;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Objects;

import org.slf4j.Logger;

/**
 * Where a {@link NcsaRequestLog} writes its lines: a file (optionally one per day), any
 * {@link Appendable}, or an SLF4J logger. Only the log's writer thread calls it, one call at
 * a time, so implementations need no locking; they may block (that is why the log has a
 * thread of its own).
 */
public interface RequestLogOutput extends AutoCloseable {

    /** Writes one line; {@code line} has no line terminator. */
    void write(String line) throws IOException;

    /** Pushes buffered lines out; called when the log's queue runs empty. */
    default void flush() throws IOException {
    }

    /** Releases what the output holds; called once, when the log stops. */
    @Override
    default void close() throws IOException {
    }

    /** @return an output appending each line and {@code \n} to {@code out}, flushing it when it is {@link Flushable} */
    static RequestLogOutput of(Appendable out) {
        Objects.requireNonNull(out, "out");
        return new RequestLogOutput() {
            @Override
            public void write(String line) throws IOException {
                out.append(line).append('\n');
            }

            @Override
            public void flush() throws IOException {
                if (out instanceof Flushable flushable) {
                    flushable.flush();
                }
            }

            @Override
            public String toString() {
                return "RequestLogOutput[" + out.getClass().getSimpleName() + "]";
            }
        };
    }

    /** @return an output logging each line at INFO level on {@code logger} */
    static RequestLogOutput of(Logger logger) {
        Objects.requireNonNull(logger, "logger");
        return new RequestLogOutput() {
            @Override
            public void write(String line) {
                logger.info("{}", line);
            }

            @Override
            public String toString() {
                return "RequestLogOutput[" + logger.getName() + "]";
            }
        };
    }

    /** @return an output appending to {@code file} (created when missing, parent directories too) */
    static RequestLogOutput file(Path file) {
        return new FileRequestLogOutput(file, null, null);
    }

    /**
     * @return an output appending to {@code prefix-yyyy_MM_dd.log} in {@code directory}, moving
     *     to a new file when the day (in the clock's zone) changes; old files are kept
     */
    static RequestLogOutput dailyFiles(Path directory, String prefix, Clock clock) {
        return new FileRequestLogOutput(directory, prefix, clock);
    }
}
