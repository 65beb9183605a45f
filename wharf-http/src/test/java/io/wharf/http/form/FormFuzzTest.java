package io.wharf.http.form;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URLEncoder;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import io.wharf.http.BadMessageException;

import com.code_intelligence.jazzer.junit.FuzzTest;

import org.junit.jupiter.api.AfterAll;

/**
 * Fuzz targets for the form parsers (docs/fuzzing.md). Both push parsers read the input as
 * request content, once whole and once cut in two at a place the input's first octet picks
 * (the octet stays part of the content). What each input must keep:
 * <ul>
 * <li>only {@link BadMessageException} escapes: 400 for a malformed form, 413 past a limit;
 *     and the same fields or parts, or a refusal, however the content was cut;</li>
 * <li>bounded: no more keys or parts, and no larger part, than the limits allow;</li>
 * <li>{@link #urlEncoded}, round trip: the fields, written back with the JDK's
 *     {@link URLEncoder}, parse to the same fields;</li>
 * <li>{@link #multipart}: the input's first line is the request's {@code Content-Type}; the
 *     boundary {@link MultiPartFormParser#boundaryOf} reads from it is one the parser takes, and
 *     no spool file is left behind once the form (or a failed parse) is closed.</li>
 * </ul>
 * Seeds: {@code src/test/resources/io/wharf/http/form/FormFuzzTestInputs/<method>/}.
 */
class FormFuzzTest {

    private static final FormLimits FORM_LIMITS = new FormLimits(16, 1024);
    private static final MultiPartLimits MULTIPART_LIMITS = new MultiPartLimits(8, 256, 512, 256, 2048, 32);
    private static final Path SPOOL = spoolDirectory();

    private static Path spoolDirectory() {
        try {
            return Files.createTempDirectory("wharf-form-fuzz");
        } catch (IOException x) {
            throw new UncheckedIOException(x);
        }
    }

    @AfterAll
    static void deleteSpoolDirectory() throws IOException {
        Files.deleteIfExists(SPOOL);
    }

    @FuzzTest
    void urlEncoded(byte[] input) {
        int cut = cut(input);
        Object whole = urlEncoded(input, input.length);
        sameOutcome(whole, urlEncoded(input, cut), cut);
        if (whole instanceof FormFields fields) {
            assertTrue(fields.fieldCount() <= FORM_LIMITS.maxKeys(), "more keys than the limit: " + fields.fieldCount());
            StringBuilder written = new StringBuilder();
            for (Map.Entry<String, List<String>> field : fields.asMap().entrySet()) {
                for (String value : field.getValue()) {
                    written.append(written.isEmpty() ? "" : "&").append(URLEncoder.encode(field.getKey(), StandardCharsets.UTF_8))
                        .append('=').append(URLEncoder.encode(value, StandardCharsets.UTF_8));
                }
            }
            UrlEncodedParser again = new UrlEncodedParser();
            again.parse(ByteBuffer.wrap(written.toString().getBytes(StandardCharsets.US_ASCII)), true);
            assertEquals(fields, again.getFields(), () -> "written back as " + written);
        }
    }

    /** @return the fields, or the status of the refusal */
    private static Object urlEncoded(byte[] input, int cut) {
        UrlEncodedParser parser = new UrlEncodedParser(StandardCharsets.UTF_8, FORM_LIMITS);
        try {
            parser.parse(ByteBuffer.wrap(input, 0, cut), false);
            parser.parse(ByteBuffer.wrap(input, cut, input.length - cut), true);
            return parser.getFields();
        } catch (BadMessageException refused) {
            return status(refused);
        }
    }

    @FuzzTest
    void multipart(byte[] input) throws IOException {
        int lineEnd = 0;
        while (lineEnd < input.length && input[lineEnd] != '\n') {
            lineEnd++;
        }
        String contentType = new String(input, 0, lineEnd, StandardCharsets.ISO_8859_1);
        String boundary;
        try {
            boundary = MultiPartFormParser.boundaryOf(contentType);
        } catch (BadMessageException refused) {
            assertTrue(refused.getStatus() == 400 || refused.getStatus() == 415, refused::toString);
            return;
        }
        int start = Math.min(lineEnd + 1, input.length);
        byte[] body = Arrays.copyOfRange(input, start, input.length);
        int cut = cut(body);
        Object whole = multipart(boundary, body, body.length);
        sameOutcome(whole, multipart(boundary, body, cut), cut);
    }

    /**
     * Checks that content read whole and cut in two comes to the same: the same fields or
     * parts, or a refusal both ways. Not always the same status: a limit is checked on each
     * chunk as it arrives, before it is read, so content both too large and malformed is a 413
     * when it comes whole and a 400 when the malformed part comes in a chunk of its own first
     * (a corpus entry, too-large-and-malformed, keeps that case).
     */
    private static void sameOutcome(Object whole, Object cut, int at) {
        if (whole instanceof Integer && cut instanceof Integer) {
            return;
        }
        assertEquals(whole, cut, "cut at " + at);
    }

    /** @return the parts as text, or the status of the refusal; checks the limits and that nothing is left spooled */
    private static Object multipart(String boundary, byte[] body, int cut) throws IOException {
        String outcome;
        try (MultiPartFormParser parser = new MultiPartFormParser(boundary, MULTIPART_LIMITS, SPOOL)) {
            try {
                parser.parse(ByteBuffer.wrap(body, 0, cut), false);
                parser.parse(ByteBuffer.wrap(body, cut, body.length - cut), true);
            } catch (BadMessageException refused) {
                assertEquals(List.of(), spooled(), "a failed parse left spool files");
                return status(refused);
            }
            try (MultiPartForm form = parser.getForm()) {
                assertTrue(form.size() <= MULTIPART_LIMITS.maxParts(), "more parts than the limit");
                List<String> parts = new ArrayList<>();
                for (Part part : form) {
                    long limit = part.getFileName() == null ? MULTIPART_LIMITS.maxFieldBytes() : MULTIPART_LIMITS.maxPartBytes();
                    assertTrue(part.getLength() <= limit, () -> "a part past its limit: " + part);
                    parts.add(part.getName() + " " + part.getFileName() + " " + part.getHeaders() + " "
                        + part.getContentAsString(StandardCharsets.ISO_8859_1));
                }
                outcome = parts.toString();
            }
        }
        assertEquals(List.of(), spooled(), "spool files left after the form was closed");
        return outcome;
    }

    private static List<Path> spooled() throws IOException {
        try (Stream<Path> files = Files.list(SPOOL)) {
            return files.toList();
        }
    }

    /** @return where to cut {@code input}, picked by its first octet */
    private static int cut(byte[] input) {
        return input.length == 0 ? 0 : (input[0] & 0xFF) % (input.length + 1);
    }

    private static Integer status(BadMessageException refused) {
        int status = refused.getStatus();
        assertTrue(status == 400 || status == 413, () -> "status " + status + ": " + refused.getMessage());
        return status;
    }
}
