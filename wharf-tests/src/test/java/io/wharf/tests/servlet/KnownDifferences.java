package io.wharf.tests.servlet;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The differences between containers that the differential suite accepts, read from the
 * tables under the heading {@value #HEADING} in {@code docs/servlet.md} (its subsections
 * included: the differences the specification justifies, and those Wharf is still to fix),
 * so that the page the users read and the list the tests obey are one. A row is
 * <pre>
 * | Test | Request | Peer | Differs in | Why |
 * </pre>
 * with the test class's simple name, the request line without its version (as
 * {@code GET /ctx/a?b}, or {@code *} for every request of the test), the peer or peers (comma separated) whose answer is the odd one, the
 * compared field ({@code status}, {@code body} or a header name, as {@link Answer} names them;
 * {@code body: a, b} for only the body lines that start with {@code a=} or {@code b=}, which
 * keeps the rest of the body compared) and the reason, which cites the specification's section (it must hold a {@code §}).
 * Backquotes around a cell are taken off. A row that names every peer says that they all
 * differ, each for the reason given.
 */
final class KnownDifferences {

    static final String HEADING = "## Differences from Jetty and Tomcat";

    /** The request of a row that holds for every request of its test. */
    static final String EVERY_REQUEST = "*";

    /**
     * One accepted difference: in {@code field}, the answer of {@code peers} differs from the
     * others'; when {@code lines} are named, only in the body lines that start with one of them and {@code =}.
     */
    record Entry(String test, String request, Set<String> peers, String field, List<String> lines, String why) {

        /** @return {@code body} without the lines this entry lets differ */
        String withoutLines(String body) {
            return body.lines().filter(line -> lines.stream().noneMatch(name -> line.startsWith(name + "=")))
                .collect(Collectors.joining("\n"));
        }
    }

    private final List<Entry> entries;

    private KnownDifferences(List<Entry> entries) {
        this.entries = List.copyOf(entries);
    }

    /** @return the table in {@code docs/servlet.md}, found from the working directory upwards */
    static KnownDifferences fromDocs() {
        for (Path directory = Path.of("").toAbsolutePath(); directory != null; directory = directory.getParent()) {
            Path page = directory.resolve("docs/servlet.md");
            if (Files.isRegularFile(page)) {
                try {
                    return parse(Files.readString(page));
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
        }
        throw new IllegalStateException("no docs/servlet.md above " + Path.of("").toAbsolutePath());
    }

    /** @return the table under {@value #HEADING} in the Markdown {@code page} */
    static KnownDifferences parse(String page) {
        List<Entry> entries = new ArrayList<>();
        boolean inSection = false;
        for (String line : page.split("\n")) {
            if (line.startsWith("## ")) {
                inSection = line.strip().equals(HEADING);
                continue;
            }
            if (!inSection || !line.startsWith("|") || line.startsWith("|---") || line.startsWith("| Test |")) {
                continue; // not a row, or a table's column titles and their |---| line
            }
            String[] cells = line.strip().substring(1).split("\\|", -1);
            if (cells.length != 6 || !cells[5].isBlank()) {
                throw new IllegalArgumentException("a row of " + HEADING + " needs 5 cells: " + line);
            }
            String why = cell(cells[4]);
            if (!why.contains("§")) {
                throw new IllegalArgumentException("a known difference must cite the section that justifies it (§): " + line);
            }
            Set<String> peers = new LinkedHashSet<>();
            Arrays.stream(cell(cells[2]).split(",")).map(String::strip).forEach(peers::add);
            String field = cell(cells[3]);
            List<String> lines = List.of();
            int colon = field.indexOf(':');
            if (colon > 0) {
                lines = Arrays.stream(field.substring(colon + 1).split(",")).map(String::strip).toList();
                field = field.substring(0, colon).strip();
            }
            entries.add(new Entry(cell(cells[0]), cell(cells[1]), peers, field, lines, why));
        }
        return new KnownDifferences(entries);
    }

    private static String cell(String text) {
        String value = text.strip();
        return value.length() > 1 && value.startsWith("`") && value.endsWith("`") ? value.substring(1, value.length() - 1) : value;
    }

    /**
     * @return the rows for {@code field} of the answers to {@code request} in {@code test}, the
     *     request's own and those for every request ({@code *}), merged into one: their peers and
     *     body lines together (the whole body if one row names no lines), their reasons joined
     */
    Optional<Entry> find(String test, String request, String field) {
        List<Entry> rows = entries.stream()
            .filter(entry -> entry.test().equals(test) && entry.field().equals(field)
                && (entry.request().equals(request) || entry.request().equals(EVERY_REQUEST)))
            .toList();
        if (rows.isEmpty()) {
            return Optional.empty();
        }
        Set<String> peers = new LinkedHashSet<>();
        rows.forEach(row -> peers.addAll(row.peers()));
        boolean wholeBody = rows.stream().anyMatch(row -> row.lines().isEmpty());
        List<String> lines = wholeBody ? List.of() : rows.stream().flatMap(row -> row.lines().stream()).distinct().toList();
        boolean everyRequest = rows.stream().allMatch(row -> row.request().equals(EVERY_REQUEST));
        return Optional.of(new Entry(test, everyRequest ? EVERY_REQUEST : request, peers, field, lines,
            rows.stream().map(Entry::why).collect(Collectors.joining(" / "))));
    }
}
