package io.wharf.http;

import static io.wharf.http.ParserDriver.buffer;
import static io.wharf.http.ParserDriver.parseAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

import io.wharf.http.HttpCompliance.Violation;

class HttpComplianceTest {

    /** Records what a mode let through. */
    private static final class Violations implements ComplianceViolation.Listener {
        final List<ComplianceViolation> seen = new ArrayList<>();
        final List<String> details = new ArrayList<>();

        @Override
        public void onComplianceViolation(ComplianceViolation.Mode<?> mode, ComplianceViolation violation, String detail) {
            seen.add(violation);
            details.add(detail);
        }
    }

    static Stream<Arguments> violations() {
        return Stream.of(
                // violation, raw request, status in strict mode, events (after the start line) the lenient parse gives
                Arguments.of(Violation.HTTP_0_9, "GET /old\r\n", 505,
                        List.of("request GET /old HTTP/0.9", "headerComplete", "contentComplete", "messageComplete")),
                Arguments.of(Violation.MULTILINE_FIELD_VALUE, "GET / HTTP/1.1\r\nHost: a\r\nX: one\r\n  two \r\n\tthree\r\n\r\n",
                        400, List.of("request GET / HTTP/1.1", "header Host: a", "header X: one two three",
                                "headerComplete", "contentComplete", "messageComplete")),
                Arguments.of(Violation.MULTIPLE_CONTENT_LENGTHS,
                        "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\nContent-Length: 3\r\n\r\nabc", 400,
                        List.of("request POST / HTTP/1.1", "header Host: a", "header Content-Length: 3",
                                "header Content-Length: 3", "headerComplete", "content abc", "contentComplete",
                                "messageComplete")),
                Arguments.of(Violation.TRANSFER_ENCODING_WITH_CONTENT_LENGTH,
                        "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 100\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n",
                        400, List.of("request POST / HTTP/1.1", "header Host: a", "header Content-Length: 100",
                                "header Transfer-Encoding: chunked", "headerComplete", "content abc", "contentComplete",
                                "messageComplete")),
                Arguments.of(Violation.WHITESPACE_AFTER_FIELD_NAME, "GET / HTTP/1.1\r\nHost : a\r\n\r\n", 400,
                        List.of("request GET / HTTP/1.1", "header Host: a", "headerComplete", "contentComplete",
                                "messageComplete")),
                Arguments.of(Violation.NO_COLON_AFTER_FIELD_NAME, "GET / HTTP/1.1\r\nHost: a\r\nFlag\r\n\r\n", 400,
                        List.of("request GET / HTTP/1.1", "header Host: a", "header Flag: ", "headerComplete",
                                "contentComplete", "messageComplete")),
                Arguments.of(Violation.DUPLICATE_HOST_HEADERS, "GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", 400,
                        List.of("request GET / HTTP/1.1", "header Host: a", "header Host: b", "headerComplete",
                                "contentComplete", "messageComplete")),
                Arguments.of(Violation.LF_HEADER_TERMINATION, "GET / HTTP/1.1\nHost: a\n\n", 400,
                        List.of("request GET / HTTP/1.1", "header Host: a", "headerComplete", "contentComplete",
                                "messageComplete")),
                Arguments.of(Violation.LF_CHUNK_TERMINATION,
                        "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n3\nabc\n0\r\n\r\n", 400,
                        List.of("request POST / HTTP/1.1", "header Host: a", "header Transfer-Encoding: chunked",
                                "headerComplete", "content abc", "contentComplete", "messageComplete")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("violations")
    void strictRejectsWhatLegacyAllowsAndReports(Violation violation, String raw, int strictStatus, List<String> lenient) {
        RecordingListener strict = new RecordingListener();
        Violations strictViolations = new Violations();
        parseAll(parser(strict, HttpCompliance.RFC9112, strictViolations), buffer(raw));
        assertEquals(1, strict.failures.size(), strict.events.toString());
        assertEquals(strictStatus, strict.failures.getFirst().getStatus());
        assertTrue(strict.failures.getFirst().getReason().contains(violation.getName()), strict.failures.getFirst().getReason());
        assertEquals(List.of(), strictViolations.seen);

        for (HttpCompliance mode : List.of(HttpCompliance.LEGACY, HttpCompliance.of("ONLY_" + violation, EnumSet.of(violation)))) {
            RecordingListener listener = new RecordingListener();
            Violations violations = new Violations();
            parseAll(parser(listener, mode, violations), buffer(raw + "GET /next HTTP/1.1\r\nHost: a\r\n\r\n"));
            assertEquals(List.of(), listener.failures, mode.getName());
            assertEquals(lenient, listener.events.subList(0, lenient.size()), mode.getName());
            assertEquals("/next", listener.targets().getLast(), "framing kept after " + violation);
            assertTrue(violations.seen.contains(violation), violations.seen.toString());
            assertTrue(violations.seen.stream().allMatch(v -> v == violation), "only " + violation + ": " + violations.seen);
            assertTrue(violations.details.stream().allMatch(d -> d.chars().allMatch(c -> c >= 0x20 && c < 0x7F)));
        }
    }

    @Test
    void aMethodInAnotherCaseIsAnotherMethodUnlessFoldingIsAllowed() {
        String raw = "get / HTTP/1.1\r\nHost: a\r\n\r\nhead / HTTP/1.1\r\nHost: a\r\n\r\n";
        RecordingListener strict = new RecordingListener();
        Violations strictViolations = new Violations();
        parseAll(parser(strict, HttpCompliance.RFC9112, strictViolations), buffer(raw));
        assertEquals(List.of(), strict.failures);
        assertTrue(strict.events.contains("request get / HTTP/1.1"), strict.events.toString());
        assertTrue(strict.events.contains("request head / HTTP/1.1"), strict.events.toString());
        assertEquals(List.of(), strictViolations.seen);

        RecordingListener lenient = new RecordingListener();
        Violations lenientViolations = new Violations();
        parseAll(parser(lenient, HttpCompliance.LEGACY, lenientViolations), buffer(raw));
        assertEquals(List.of(), lenient.failures);
        assertTrue(lenient.events.contains("request GET / HTTP/1.1"), lenient.events.toString());
        assertTrue(lenient.events.contains("request HEAD / HTTP/1.1"), lenient.events.toString());
        assertEquals(List.of(Violation.CASE_INSENSITIVE_METHOD, Violation.CASE_INSENSITIVE_METHOD), lenientViolations.seen);
    }

    @Test
    void rfc7230AllowsOnlyWhatBothRfcsCallOptional() {
        assertEquals(EnumSet.of(Violation.LF_HEADER_TERMINATION, Violation.MULTIPLE_CONTENT_LENGTHS),
                HttpCompliance.RFC7230.getAllowed());
        assertEquals(EnumSet.noneOf(Violation.class), HttpCompliance.RFC9112.getAllowed());
        assertEquals(EnumSet.allOf(Violation.class), HttpCompliance.LEGACY.getAllowed());

        RecordingListener listener = new RecordingListener();
        parseAll(parser(listener, HttpCompliance.RFC7230, new Violations()),
                buffer("GET / HTTP/1.1\nHost: a\nX: a\n b\n\n"));
        assertEquals(400, listener.failures.getFirst().getStatus(), "obs-fold stays refused");
    }

    @Test
    void aContentLengthListIsOneLengthWhenAllowed() {
        RecordingListener listener = new RecordingListener();
        Violations violations = new Violations();
        parseAll(parser(listener, HttpCompliance.RFC7230, violations),
                buffer("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 3, 3\r\n\r\nabc"));
        assertEquals("content abc", listener.events.get(4));
        assertEquals(List.of(Violation.MULTIPLE_CONTENT_LENGTHS), violations.seen);

        RecordingListener different = new RecordingListener();
        parseAll(parser(different, HttpCompliance.LEGACY, new Violations()),
                buffer("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 3, 4\r\n\r\nabcd"));
        assertEquals(400, different.failures.getFirst().getStatus(), "differing lengths are never allowed");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', textBlock = """
            RFC9112                                  | RFC9112                                  | ''
            rfc7230                                  | RFC7230                                  | LF_HEADER_TERMINATION,MULTIPLE_CONTENT_LENGTHS
            LEGACY                                   | LEGACY                                   | ALL
            RFC9112,+MULTILINE_FIELD_VALUE           | RFC9112,+MULTILINE_FIELD_VALUE           | MULTILINE_FIELD_VALUE
            RFC7230, -multiple_content_lengths, +HTTP_0_9 | RFC7230, -multiple_content_lengths, +HTTP_0_9 | LF_HEADER_TERMINATION,HTTP_0_9
            """)
    void modesAreMadeFromTheirNames(String spec, String name, String allowed) {
        HttpCompliance mode = HttpCompliance.from(spec);
        assertEquals(name, mode.getName());
        EnumSet<Violation> expected = EnumSet.noneOf(Violation.class);
        if (allowed.equals("ALL")) {
            expected = EnumSet.allOf(Violation.class);
        } else if (!allowed.isEmpty()) {
            for (String violation : allowed.split(",")) {
                expected.add(Violation.valueOf(violation));
            }
        }
        assertEquals(expected, mode.getAllowed());
    }

    @Test
    void namedModesAreTheSameInstances() {
        assertSame(HttpCompliance.RFC9112, HttpCompliance.from("rfc9112"));
        assertSame(HttpCompliance.LEGACY, HttpCompliance.from(" LEGACY "));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', textBlock = """
            RFC2616                 | unknown HTTP compliance mode
            ''                      | unknown HTTP compliance mode
            RFC9112,MULTILINE       | must be +VIOLATION or -VIOLATION
            RFC9112,+NO_SUCH_THING  | unknown HTTP compliance violation
            """)
    void badNamesAreRefusedByName(String spec, String message) {
        IllegalArgumentException failure = assertThrows(IllegalArgumentException.class, () -> HttpCompliance.from(spec));
        assertTrue(failure.getMessage().contains(message), failure.getMessage());
    }

    @Test
    void everyViolationNamesItsStandard() {
        for (Violation violation : Violation.values()) {
            assertEquals(violation.name(), violation.getName());
            assertTrue(violation.getStandard().startsWith("RFC "), violation.getStandard());
            assertFalse(violation.getDescription().isBlank());
        }
        assertThrows(UnsupportedOperationException.class, () -> HttpCompliance.LEGACY.getAllowed().clear());
    }

    private static HttpParser parser(RecordingListener listener, HttpCompliance mode, Violations violations) {
        return new HttpParser((HttpParserListener.Request) listener, HttpParser.Limits.DEFAULT, mode, violations);
    }
}
