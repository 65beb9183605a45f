package io.wharf.server.handler.log;

import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.time.LocalDate;
import java.time.format.DateTimeFormatter;
import java.util.Objects;

/**
 * A {@link RequestLogOutput} appending lines to one file, or to one file per day
 * ({@code prefix-yyyy_MM_dd.log}) when made with a clock. Called only by the request log's
 * writer thread; not thread-safe.
 */
final class FileRequestLogOutput implements RequestLogOutput {

    private static final DateTimeFormatter DAY = DateTimeFormatter.ofPattern("yyyy_MM_dd");

    private final Path location;
    private final String prefix;
    private final Clock clock;
    private LocalDate day;
    private Writer writer;

    /**
     * @param location the file, or the directory of daily files when {@code clock} is not null
     * @param prefix the daily files' name prefix, or null for one file
     * @param clock the clock telling the day, or null for one file
     */
    FileRequestLogOutput(Path location, String prefix, Clock clock) {
        this.location = Objects.requireNonNull(location, "location");
        this.prefix = prefix;
        this.clock = clock;
        if (clock != null && (prefix == null || prefix.isEmpty() || prefix.contains("/") || prefix.contains("\\"))) {
            throw new IllegalArgumentException("daily request log files need a plain name prefix, not '" + prefix + "'");
        }
    }

    @Override
    public void write(String line) throws IOException {
        writer().append(line).append('\n');
    }

    @Override
    public void flush() throws IOException {
        if (writer != null) {
            writer.flush();
        }
    }

    @Override
    public void close() throws IOException {
        if (writer != null) {
            Writer open = writer;
            writer = null;
            open.close();
        }
    }

    /** @return the file the next line goes to */
    Path currentFile() {
        return clock == null ? location : location.resolve(prefix + "-" + DAY.format(LocalDate.now(clock)) + ".log");
    }

    private Writer writer() throws IOException {
        if (clock != null) {
            LocalDate today = LocalDate.now(clock);
            if (!today.equals(day)) {
                close();
                day = today;
            }
        }
        if (writer == null) {
            Path file = currentFile();
            Path parent = file.toAbsolutePath().getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
            writer = Files.newBufferedWriter(file, StandardCharsets.UTF_8,
                    StandardOpenOption.CREATE, StandardOpenOption.APPEND, StandardOpenOption.WRITE);
        }
        return writer;
    }

    @Override
    public String toString() {
        return "FileRequestLogOutput[" + (clock == null ? location : location.resolve(prefix + "-*.log")) + "]";
    }
}
