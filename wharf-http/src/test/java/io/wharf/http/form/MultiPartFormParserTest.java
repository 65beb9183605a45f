package io.wharf.http.form;

import static java.nio.charset.StandardCharsets.ISO_8859_1;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.function.UnaryOperator;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import io.wharf.http.BadMessageException;
import io.wharf.testing.LinearTime;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

class MultiPartFormParserTest {

    private static final String BOUNDARY = "----WebKitFormBoundary7MA4YWxkTrZu0gW";

    /** A body as Chrome sends it for a form with two fields, a repeated field and two file inputs. */
    private static final byte[] BROWSER_BODY = crlf("""
            ------WebKitFormBoundary7MA4YWxkTrZu0gW
            Content-Disposition: form-data; name="title"

            Hello, wörld
            ------WebKitFormBoundary7MA4YWxkTrZu0gW
            Content-Disposition: form-data; name="tags"

            a
            ------WebKitFormBoundary7MA4YWxkTrZu0gW
            Content-Disposition: form-data; name="tags"

            b
            ------WebKitFormBoundary7MA4YWxkTrZu0gW
            Content-Disposition: form-data; name="upload"; filename="résumé.txt"
            Content-Type: text/plain

            line one
            ------WebKitFormBoundary7MA4YWxkTrZu0gX
            --
            ------WebKitFormBoundary7MA4YWxkTrZu0g

            ------WebKitFormBoundary7MA4YWxkTrZu0gW
            Content-Disposition: form-data; name="empty"; filename=""
            Content-Type: application/octet-stream


            ------WebKitFormBoundary7MA4YWxkTrZu0gW--
            """);

    private static final String UPLOAD_CONTENT = crlfString("""
            line one
            ------WebKitFormBoundary7MA4YWxkTrZu0gX
            --
            ------WebKitFormBoundary7MA4YWxkTrZu0g
            """);

    @TempDir
    Path spoolDirectory;

    private static byte[] crlf(String text) {
        return crlfString(text).getBytes(UTF_8);
    }

    private static String crlfString(String text) {
        return text.replace("\n", "\r\n");
    }

    /** Feeds {@code body} split at the given offsets, each piece in its own direct buffer. */
    private static MultiPartForm parse(MultiPartFormParser parser, byte[] body, int... splits) {
        int start = 0;
        for (int split : splits) {
            parser.parse(direct(body, start, split), false);
            start = split;
        }
        parser.parse(direct(body, start, body.length), true);
        return parser.getForm();
    }

    private static ByteBuffer direct(byte[] body, int from, int to) {
        return ByteBuffer.allocateDirect(to - from).put(body, from, to - from).flip();
    }

    private MultiPartFormParser parser(MultiPartLimits limits) {
        return new MultiPartFormParser(BOUNDARY, limits, spoolDirectory);
    }

    private static void assertBrowserForm(MultiPartForm form) {
        assertEquals(List.of("title", "tags", "tags", "upload", "empty"),
                form.getParts().stream().map(Part::getName).toList());
        assertEquals("Hello, wörld", form.getPart("title").getContentAsString(UTF_8));
        assertNull(form.getPart("title").getFileName());
        assertFalse(form.getPart("title").isFile());
        assertEquals(List.of("a", "b"), form.getParts("tags").stream().map(part -> part.getContentAsString(UTF_8)).toList());
        Part upload = form.getPart("upload");
        assertEquals("résumé.txt", upload.getFileName());
        assertEquals("text/plain", upload.getContentType());
        assertEquals(UPLOAD_CONTENT, upload.getContentAsString(UTF_8));
        assertEquals(UPLOAD_CONTENT.length(), upload.getLength());
        Part empty = form.getPart("empty");
        assertEquals("", empty.getFileName());
        assertTrue(empty.isFile());
        assertEquals(0, empty.getLength());
        assertEquals("application/octet-stream", empty.getHeaders().get("content-type"));
        assertEquals("{title=[Hello, wörld], tags=[a, b]}", form.getFields(UTF_8).toString());
    }

    @Test
    void browserBodyFedWhole() {
        try (MultiPartForm form = parse(parser(MultiPartLimits.DEFAULT), BROWSER_BODY)) {
            assertBrowserForm(form);
            assertFalse(form.getPart("upload").isSpooled());
        }
    }

    static Stream<Integer> everyOffsetOfTheBrowserBody() {
        return IntStream.rangeClosed(0, BROWSER_BODY.length).boxed();
    }

    @ParameterizedTest
    @MethodSource("everyOffsetOfTheBrowserBody")
    void browserBodySplitAtAnyByte(int offset) {
        try (MultiPartForm form = parse(parser(MultiPartLimits.DEFAULT), BROWSER_BODY, offset)) {
            assertBrowserForm(form);
        }
    }

    @Test
    void browserBodySplitAtAnyByteWhileSpoolingEveryPart() throws IOException {
        MultiPartLimits spoolAll = MultiPartLimits.DEFAULT.withSpoolThresholdBytes(0);
        for (int offset = 0; offset <= BROWSER_BODY.length; offset++) {
            try (MultiPartForm form = parse(parser(spoolAll), BROWSER_BODY, offset)) {
                assertBrowserForm(form);
                assertTrue(form.getPart("upload").isSpooled());
                assertFalse(form.getPart("empty").isSpooled(), "an empty part needs no file");
            }
            assertSpoolDirectoryEmpty();
        }
    }

    @Test
    void browserBodyOneByteAtATime() {
        int[] splits = IntStream.range(1, BROWSER_BODY.length).toArray();
        try (MultiPartForm form = parse(parser(MultiPartLimits.DEFAULT), BROWSER_BODY, splits)) {
            assertBrowserForm(form);
        }
    }

    @Test
    void leavesTheChunkPositionAtItsLimitAndKeepsNoReference() {
        MultiPartFormParser parser = parser(MultiPartLimits.DEFAULT);
        ByteBuffer chunk = ByteBuffer.wrap(BROWSER_BODY.clone());
        parser.parse(chunk, true);
        assertEquals(chunk.limit(), chunk.position());
        Arrays.fill(chunk.array(), (byte) 'z');
        try (MultiPartForm form = parser.getForm()) {
            assertBrowserForm(form);
        }
    }

    private void assertSpoolDirectoryEmpty() throws IOException {
        try (Stream<Path> files = Files.list(spoolDirectory)) {
            assertEquals(List.of(), files.toList());
        }
    }

    private static String onePart(String disposition, String content) {
        return "--B\r\nContent-Disposition: " + disposition + "\r\n\r\n" + content + "\r\n--B--\r\n";
    }

    @Test
    void spoolsAPartLargerThanTheThresholdAndDeletesItOnClose() throws IOException {
        String big = "x".repeat(16 * 1024 + 1);
        String small = "y".repeat(16 * 1024);
        byte[] body = ("--B\r\nContent-Disposition: form-data; name=big; filename=big.bin\r\n\r\n" + big
                + "\r\n--B\r\nContent-Disposition: form-data; name=small; filename=small.bin\r\n\r\n" + small
                + "\r\n--B--").getBytes(UTF_8);
        MultiPartForm form = parse(new MultiPartFormParser("B", MultiPartLimits.DEFAULT, spoolDirectory), body, 5000, 17000);
        Part bigPart = form.getPart("big");
        Part smallPart = form.getPart("small");
        assertTrue(bigPart.isSpooled());
        assertFalse(smallPart.isSpooled());
        assertEquals(big.length(), bigPart.getLength());
        assertEquals(big, bigPart.getContentAsString(UTF_8));
        assertEquals(small, smallPart.getContentAsString(UTF_8));
        try (var in = bigPart.newInputStream()) {
            assertArrayEquals(big.getBytes(UTF_8), in.readAllBytes());
        }
        try (Stream<Path> files = Files.list(spoolDirectory)) {
            List<Path> spooled = files.toList();
            assertEquals(1, spooled.size());
            assertEquals(big, Files.readString(spooled.get(0)));
        }
        form.close();
        assertSpoolDirectoryEmpty();
        assertThrows(IllegalStateException.class, bigPart::newInputStream);
        assertThrows(IllegalStateException.class, () -> smallPart.getContentAsString(UTF_8));
        form.close();
    }

    @Test
    void writeToMovesTheSpoolFileAndCloseLeavesTheTarget(@TempDir Path uploads) throws IOException {
        String big = "z".repeat(40_000);
        byte[] body = onePart("form-data; name=f; filename=a.bin", big).getBytes(UTF_8);
        MultiPartForm form = parse(new MultiPartFormParser("B", MultiPartLimits.DEFAULT, spoolDirectory), body);
        Part part = form.getPart("f");
        Path target = uploads.resolve("kept.bin");
        part.writeTo(target);
        assertSpoolDirectoryEmpty();
        assertEquals(big, Files.readString(target));
        assertTrue(part.isSpooled());
        assertEquals(big, part.getContentAsString(UTF_8), "the part now reads the target");
        Path existing = Files.writeString(uploads.resolve("existing.bin"), "keep me");
        assertThrows(UncheckedIOException.class, () -> part.writeTo(existing), "the target exists");
        assertEquals("keep me", Files.readString(existing));
        form.close();
        assertEquals(big, Files.readString(target));
    }

    @Test
    void writeToWritesAnInMemoryPart(@TempDir Path uploads) throws IOException {
        byte[] body = onePart("form-data; name=f; filename=a.txt", "small").getBytes(UTF_8);
        try (MultiPartForm form = parse(new MultiPartFormParser("B", MultiPartLimits.DEFAULT, spoolDirectory), body)) {
            Path target = uploads.resolve("a.txt");
            form.getPart("f").writeTo(target);
            assertEquals("small", Files.readString(target));
        }
    }

    static Stream<Arguments> limitRows() {
        String threeFields = "--B\r\nContent-Disposition: form-data; name=a\r\n\r\n1\r\n"
                + "--B\r\nContent-Disposition: form-data; name=b\r\n\r\n2\r\n"
                + "--B\r\nContent-Disposition: form-data; name=c\r\n\r\n3\r\n--B--";
        String longHeader = "--B\r\nContent-Disposition: form-data; name=a\r\nX-Long: " + "h".repeat(100) + "\r\n\r\n1\r\n--B--";
        String tenByteFile = onePart("form-data; name=f; filename=f", "0123456789");
        String sixByteField = onePart("form-data; name=f", "012345");
        String sixByteFile = onePart("form-data; name=f; filename=f", "012345");
        String big = onePart("form-data; name=f; filename=f", "x".repeat(100));
        return Stream.of(
                Arguments.of("3 parts, maxParts 3", threeFields, limits(l -> l.withMaxParts(3)), null),
                Arguments.of("3 parts, maxParts 2", threeFields, limits(l -> l.withMaxParts(2)), "maxParts 2"),
                Arguments.of("3 parts, maxParts 0", threeFields, limits(l -> l.withMaxParts(0)), "maxParts 0"),
                Arguments.of("long header, maxPartHeaderBytes 200", longHeader, limits(l -> l.withMaxPartHeaderBytes(200)), null),
                Arguments.of("long header, maxPartHeaderBytes 64", longHeader, limits(l -> l.withMaxPartHeaderBytes(64)), "maxPartHeaderBytes 64"),
                Arguments.of("10 byte file, maxPartBytes 10", tenByteFile, limits(l -> l.withMaxPartBytes(10)), null),
                Arguments.of("10 byte file, maxPartBytes 9", tenByteFile, limits(l -> l.withMaxPartBytes(9)), "maxPartBytes 9"),
                Arguments.of("6 byte field, maxFieldBytes 6", sixByteField, limits(l -> l.withMaxFieldBytes(6)), null),
                Arguments.of("6 byte field, maxFieldBytes 5", sixByteField, limits(l -> l.withMaxFieldBytes(5)), "maxFieldBytes 5"),
                Arguments.of("6 byte file, maxFieldBytes 5", sixByteFile, limits(l -> l.withMaxFieldBytes(5)), null),
                Arguments.of("6 byte field, maxPartBytes 5 below maxFieldBytes", sixByteField, limits(l -> l.withMaxPartBytes(5)), "maxPartBytes 5"),
                Arguments.of("6 byte field, no field limit", sixByteField, limits(l -> l.withMaxFieldBytes(-1)), null),
                Arguments.of("total at the limit", big, limits(l -> l.withMaxTotalBytes(big.length())), null),
                Arguments.of("total one past the limit", big, limits(l -> l.withMaxTotalBytes(big.length() - 1)), "maxTotalBytes " + (big.length() - 1)),
                Arguments.of("defaults", big, MultiPartLimits.DEFAULT, null));
    }

    private static MultiPartLimits limits(UnaryOperator<MultiPartLimits> change) {
        return change.apply(MultiPartLimits.DEFAULT);
    }

    @ParameterizedTest(name = "[{index}] {0}")
    @MethodSource("limitRows")
    void limits(String description, String body, MultiPartLimits limits, String failure) throws IOException {
        MultiPartFormParser parser = new MultiPartFormParser("B", limits, spoolDirectory);
        byte[] bytes = body.getBytes(UTF_8);
        if (failure == null) {
            parse(parser, bytes).close();
        } else {
            BadMessageException thrown = assertThrows(BadMessageException.class, () -> parse(parser, bytes));
            assertEquals(413, thrown.getStatus());
            assertTrue(thrown.getReason().endsWith(failure), thrown.getReason());
        }
        assertSpoolDirectoryEmpty();
    }

    @Test
    void aPartOverTheThresholdWithoutSpoolDirectoryIs413() {
        MultiPartFormParser parser = new MultiPartFormParser("B", MultiPartLimits.DEFAULT.withSpoolThresholdBytes(4), null);
        BadMessageException thrown = assertThrows(BadMessageException.class,
                () -> parse(parser, onePart("form-data; name=f", "12345").getBytes(UTF_8)));
        assertEquals(413, thrown.getStatus());
        assertTrue(thrown.getReason().contains("spoolThresholdBytes 4"), thrown.getReason());
        try (MultiPartForm form = parse(new MultiPartFormParser("B", MultiPartLimits.DEFAULT.withSpoolThresholdBytes(4), null),
                onePart("form-data; name=f", "1234").getBytes(UTF_8))) {
            assertEquals("1234", form.getPart("f").getContentAsString(UTF_8));
        }
    }

    @Test
    void anEndlessPartFailsAsSoonAsItPassesMaxPartBytesAndLeavesNoFile() throws IOException {
        long maxPartBytes = 100 * 1024;
        MultiPartFormParser parser = new MultiPartFormParser("B", MultiPartLimits.DEFAULT.withMaxPartBytes(maxPartBytes), spoolDirectory);
        parser.parse(ByteBuffer.wrap("--B\r\nContent-Disposition: form-data; name=f; filename=f\r\n\r\n".getBytes(UTF_8)), false);
        byte[] block = new byte[8192];
        Arrays.fill(block, (byte) 'x');
        long accepted = 0;
        BadMessageException failure = null;
        while (failure == null && accepted < 10L * 1024 * 1024) {
            try {
                parser.parse(ByteBuffer.wrap(block), false);
                accepted += block.length;
            } catch (BadMessageException thrown) {
                failure = thrown;
            }
        }
        assertTrue(failure != null && failure.getReason().contains("maxPartBytes " + maxPartBytes), String.valueOf(failure));
        assertTrue(accepted <= maxPartBytes, "accepted " + accepted);
        assertTrue(accepted > maxPartBytes - block.length, "accepted " + accepted);
        assertSpoolDirectoryEmpty();
        assertThrows(IllegalStateException.class, () -> parser.parse(ByteBuffer.wrap(block), true));
    }

    @Test
    void aFailureAfterSpooledPartsDeletesThemAll() throws IOException {
        String body = "--B\r\nContent-Disposition: form-data; name=a; filename=a\r\n\r\n" + "a".repeat(50_000)
                + "\r\n--B\r\nContent-Disposition: form-data; name=b; filename=b\r\n\r\n" + "b".repeat(50_000)
                + "\r\n--B\r\nContent-Disposition: form-data; name=c; filename=c\r\n\r\n" + "c".repeat(30_000);
        MultiPartFormParser parser = new MultiPartFormParser("B", MultiPartLimits.DEFAULT, spoolDirectory);
        parser.parse(ByteBuffer.wrap(body.getBytes(UTF_8)), false);
        try (Stream<Path> files = Files.list(spoolDirectory)) {
            assertEquals(3, files.count(), "two spooled parts and the third being spooled");
        }
        BadMessageException thrown = assertThrows(BadMessageException.class,
                () -> parser.parse(ByteBuffer.wrap("\r\n--B\nbare".getBytes(UTF_8)), true));
        assertEquals(400, thrown.getStatus());
        assertSpoolDirectoryEmpty();
        assertThrows(IllegalStateException.class, parser::getForm);
    }

    @Test
    void closingTheParserBeforeTheFormIsTakenDeletesEverything() throws IOException {
        String body = "--B\r\nContent-Disposition: form-data; name=a; filename=a\r\n\r\n" + "a".repeat(50_000);
        MultiPartFormParser parser = new MultiPartFormParser("B", MultiPartLimits.DEFAULT, spoolDirectory);
        parser.parse(ByteBuffer.wrap(body.getBytes(UTF_8)), false);
        parser.close();
        assertSpoolDirectoryEmpty();
        assertThrows(IllegalStateException.class, () -> parser.parse(ByteBuffer.allocate(0), true));
    }

    @Test
    void closingTheParserAfterTheFormIsTakenLeavesTheForm() throws IOException {
        byte[] body = onePart("form-data; name=a; filename=a", "a".repeat(50_000)).getBytes(UTF_8);
        MultiPartFormParser parser = new MultiPartFormParser("B", MultiPartLimits.DEFAULT, spoolDirectory);
        MultiPartForm form = parse(parser, body);
        parser.close();
        assertEquals(50_000, form.getPart("a").getContentAsString(UTF_8).length());
        form.close();
        assertSpoolDirectoryEmpty();
    }

    @Test
    void refusesUseOutOfOrder() {
        MultiPartFormParser parser = new MultiPartFormParser("B", MultiPartLimits.DEFAULT, spoolDirectory);
        parser.parse(ByteBuffer.wrap("--B\r\n".getBytes(UTF_8)), false);
        assertThrows(IllegalStateException.class, parser::getForm);
        parse(parser, onePart("form-data; name=a", "1").substring(5).getBytes(UTF_8));
        assertThrows(IllegalStateException.class, () -> parser.parse(ByteBuffer.allocate(0), true));
        assertEquals(parser.getForm(), parser.getForm());
    }

    static Stream<Arguments> malformedRows() {
        String disposition = "Content-Disposition: form-data; name=a\r\n";
        return Stream.of(
                Arguments.of("empty body", "", "no boundary found"),
                Arguments.of("no boundary", "hello world\r\n", "no boundary found"),
                Arguments.of("preamble that starts like a boundary line", "--Bx\r\n--B\r\n" + disposition + "\r\n1\r\n--B--", "followed by text"),
                Arguments.of("no final boundary", "--B\r\n" + disposition + "\r\nvalue", "ends inside a part"),
                Arguments.of("final boundary without CRLF before it", "--B\r\n" + disposition + "\r\nvalue--B--", "ends inside a part"),
                Arguments.of("ends in part headers", "--B\r\n" + disposition, "ends inside part headers"),
                Arguments.of("ends in a boundary line", "--B\r", "ends inside a boundary line"),
                Arguments.of("ends after a single closing dash", "--B\r\n" + disposition + "\r\n1\r\n--B-", "ends inside a boundary line"),
                Arguments.of("bare LF after the boundary", "--B\n" + disposition + "\r\n1\r\n--B--", "bare LF"),
                Arguments.of("bare LF in part headers", "--B\r\nContent-Disposition: form-data; name=a\n\r\n1\r\n--B--", "bare LF"),
                Arguments.of("bare LF ends the header block", "--B\r\n" + disposition + "\n1\r\n--B--", "bare LF"),
                Arguments.of("CR without LF after the boundary", "--B\rX", "CR not followed by LF"),
                Arguments.of("CR without LF in headers", "--B\r\nContent-Disposition: form-data; name=a\rX", "CR not followed by LF"),
                Arguments.of("text after the boundary", "--BX\r\n" + disposition + "\r\n1\r\n--B--", "followed by text"),
                Arguments.of("text after transport padding", "--B  X\r\n", "followed by text"),
                Arguments.of("single dash after the boundary", "--B-X", "single '-'"),
                Arguments.of("no Content-Disposition", "--B\r\nContent-Type: text/plain\r\n\r\n1\r\n--B--", "without Content-Disposition"),
                Arguments.of("no headers", "--B\r\n\r\n1\r\n--B--", "without Content-Disposition"),
                Arguments.of("two Content-Disposition", "--B\r\n" + disposition + disposition + "\r\n1\r\n--B--", "more than one Content-Disposition"),
                Arguments.of("not form-data", "--B\r\nContent-Disposition: attachment; name=a\r\n\r\n1\r\n--B--", "not form-data"),
                Arguments.of("no name", "--B\r\nContent-Disposition: form-data; filename=a\r\n\r\n1\r\n--B--", "has no name"),
                Arguments.of("name twice", "--B\r\nContent-Disposition: form-data; name=a; NAME=b\r\n\r\n1\r\n--B--", "given twice"),
                Arguments.of("unclosed quote", "--B\r\nContent-Disposition: form-data; name=\"a\r\n\r\n1\r\n--B--", "not closed"),
                Arguments.of("text after a quoted value", "--B\r\nContent-Disposition: form-data; name=\"a\"b\r\n\r\n1\r\n--B--", "text after a parameter"),
                Arguments.of("parameter without =", "--B\r\nContent-Disposition: form-data; name\r\n\r\n1\r\n--B--", "no '='"),
                Arguments.of("bad filename* escape", "--B\r\nContent-Disposition: form-data; name=a; filename*=UTF-8''%G0\r\n\r\n1\r\n--B--", "bad filename*"),
                Arguments.of("filename* without charset", "--B\r\nContent-Disposition: form-data; name=a; filename*=abc\r\n\r\n1\r\n--B--", "bad filename*"),
                Arguments.of("folded header", "--B\r\n" + disposition + " folded\r\n\r\n1\r\n--B--", "folded line"),
                Arguments.of("header without colon", "--B\r\n" + disposition + "Nonsense\r\n\r\n1\r\n--B--", "without ':'"),
                Arguments.of("header name with a space", "--B\r\n" + disposition + "Bad Name: x\r\n\r\n1\r\n--B--", "not a token"),
                Arguments.of("empty header name", "--B\r\n" + disposition + ": x\r\n\r\n1\r\n--B--", "empty"),
                Arguments.of("control character in a value", "--B\r\n" + disposition + "X-A: a\u0001b\r\n\r\n1\r\n--B--", "control character"));
    }

    @ParameterizedTest(name = "[{index}] {0}")
    @MethodSource("malformedRows")
    void malformedFramingIs400(String description, String body, String reason) throws IOException {
        MultiPartFormParser parser = new MultiPartFormParser("B", MultiPartLimits.DEFAULT, spoolDirectory);
        BadMessageException thrown = assertThrows(BadMessageException.class, () -> parse(parser, body.getBytes(UTF_8)));
        assertEquals(400, thrown.getStatus());
        assertTrue(thrown.getReason().contains(reason), thrown.getReason());
        assertThrows(IllegalStateException.class, parser::getForm);
    }

    static Stream<Arguments> acceptedRows() {
        String disposition = "Content-Disposition: form-data; name=a\r\n";
        return Stream.of(
                Arguments.of("preamble and epilogue", "This is a preamble.\r\n--B\r\n" + disposition + "\r\n1\r\n--B--\r\nepilogue --B\r\n", "a=1"),
                Arguments.of("CRLF before the first boundary", "\r\n--B\r\n" + disposition + "\r\n1\r\n--B--", "a=1"),
                Arguments.of("boundary not at a line start is preamble", "x--B\r\n" + disposition + "\r\n1\r\n--B--", ""),
                Arguments.of("transport padding", "--B \t \r\n" + disposition + "\r\n1\r\n--B  \r\n" + disposition + "\r\n2\r\n--B--", "a=1,a=2"),
                Arguments.of("closing boundary at the very end", "--B\r\n" + disposition + "\r\n1\r\n--B--", "a=1"),
                Arguments.of("empty content", "--B\r\n" + disposition + "\r\n\r\n--B--", "a="),
                Arguments.of("content of CRLF", "--B\r\n" + disposition + "\r\n\r\n\r\n--B--", "a=\r\n"),
                Arguments.of("content with near misses", "--B\r\n" + disposition + "\r\n\r\n--\r\n-B\r\n--C--B\r\n--B--", "a=\r\n--\r\n-B\r\n--C--B"),
                Arguments.of("no parts", "--B--", ""),
                Arguments.of("quoted name with blanks and ;", "--B\r\nContent-Disposition: form-data; name=\"a b;c\"\r\n\r\n1\r\n--B--", "a b;c=1"),
                Arguments.of("header blanks and case", "--B\r\ncontent-disposition:FORM-DATA;NAME=a  ;  \r\n\r\n1\r\n--B--", "a=1"),
                Arguments.of("UTF-8 name", "--B\r\nContent-Disposition: form-data; name=\"été\"\r\n\r\n1\r\n--B--", "été=1"));
    }

    @ParameterizedTest(name = "[{index}] {0}")
    @MethodSource("acceptedRows")
    void acceptedFraming(String description, String body, String expected) {
        byte[] bytes = body.getBytes(UTF_8);
        for (int split = 0; split <= bytes.length; split++) {
            try (MultiPartForm form = parse(new MultiPartFormParser("B", MultiPartLimits.DEFAULT, spoolDirectory), bytes, split)) {
                List<String> pairs = new ArrayList<>();
                for (Part part : form) {
                    pairs.add(part.getName() + "=" + part.getContentAsString(UTF_8));
                }
                assertEquals(expected, String.join(",", pairs), "split at " + split);
            }
        }
    }

    @ParameterizedTest(name = "[{index}] {0}")
    @CsvSource(delimiter = '|', quoteCharacter = '`', textBlock = """
            # Content-Disposition                                              | file name
            form-data; name=f; filename="a.txt"                                | a.txt
            form-data; name=f; filename="C:\\Users\\me\\a.txt"                 | C:\\Users\\me\\a.txt
            form-data; name=f; filename="say %22hi%22.txt"                     | say %22hi%22.txt
            form-data; name=f; filename=plain.txt                              | plain.txt
            form-data; name=f; filename="a.txt"; filename*=UTF-8''%E2%82%AC.txt | €.txt
            form-data; name=f; filename*=utf-8'en'na%C3%AFve.txt               | naïve.txt
            form-data; name=f; filename*=ISO-8859-1''%E9.txt                   | é.txt
            form-data; name=f; filename="a.txt"; filename*=KOI8-R''%C1.txt     | a.txt
            """)
    void readsFileNames(String disposition, String fileName) {
        byte[] body = onePart(disposition, "x").getBytes(UTF_8);
        try (MultiPartForm form = parse(new MultiPartFormParser("B", MultiPartLimits.DEFAULT, spoolDirectory), body)) {
            assertEquals(fileName, form.getPart("f").getFileName());
        }
    }

    @Test
    void fieldsUseTheCharsetOfTheirContentType() {
        byte[] body = ("--B\r\nContent-Disposition: form-data; name=latin\r\nContent-Type: text/plain; charset=ISO-8859-1\r\n\r\n")
                .getBytes(UTF_8);
        byte[] rest = "\u00e9\r\n--B\r\nContent-Disposition: form-data; name=plain\r\n\r\n\u00e9\r\n--B--".getBytes(ISO_8859_1);
        byte[] all = Arrays.copyOf(body, body.length + rest.length);
        System.arraycopy(rest, 0, all, body.length, rest.length);
        try (MultiPartForm form = parse(new MultiPartFormParser("B", MultiPartLimits.DEFAULT, spoolDirectory), all)) {
            FormFields fields = form.getFields(UTF_8);
            assertEquals("é", fields.getValue("latin"));
            assertEquals("\uFFFD", fields.getValue("plain"));
            assertEquals("é", form.getFields(ISO_8859_1).getValue("plain"));
        }
    }

    @ParameterizedTest(name = "[{index}] {0}")
    @CsvSource(delimiter = '|', textBlock = """
            # Content-Type                                                      | boundary or status
            multipart/form-data; boundary=----WebKitFormBoundary7MA4YWxkTrZu0gW | ----WebKitFormBoundary7MA4YWxkTrZu0gW
            multipart/form-data; boundary="a b:c?d=e"                           | a b:c?d=e
            Multipart/Form-Data ; charset=utf-8; BOUNDARY = xyz                 | xyz
            multipart/form-data;boundary=simple;charset=utf-8                   | simple
            multipart/form-data; boundary=1234567890123456789012345678901234567890123456789012345678901234567890 | 1234567890123456789012345678901234567890123456789012345678901234567890
            multipart/form-data; boundary=12345678901234567890123456789012345678901234567890123456789012345678901 | 400
            multipart/form-data; boundary=                                      | 400
            multipart/form-data; boundary=""                                    | 400
            multipart/form-data; boundary="abc "                                | 400
            multipart/form-data; boundary=a@b                                   | 400
            multipart/form-data; boundary="abc                                  | 400
            multipart/form-data                                                 | 400
            multipart/form-data; boundary=a; boundary=b                         | 400
            multipart/mixed; boundary=abc                                       | 415
            text/plain; boundary=abc                                            | 415
            """)
    void boundaryOf(String contentType, String expected) {
        if (expected.equals("400") || expected.equals("415")) {
            BadMessageException thrown = assertThrows(BadMessageException.class, () -> MultiPartFormParser.boundaryOf(contentType));
            assertEquals(Integer.parseInt(expected), thrown.getStatus());
        } else {
            assertEquals(expected, MultiPartFormParser.boundaryOf(contentType));
        }
    }

    @Test
    void boundaryOfNoContentTypeIs415() {
        assertEquals(415, assertThrows(BadMessageException.class, () -> MultiPartFormParser.boundaryOf(null)).getStatus());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', textBlock = """
            ''
            'a b '
            a\\b
            12345678901234567890123456789012345678901234567890123456789012345678901
            """)
    void constructorRefusesBadBoundaries(String boundary) {
        assertThrows(IllegalArgumentException.class, () -> new MultiPartFormParser(boundary, MultiPartLimits.DEFAULT, spoolDirectory));
    }

    static Stream<Arguments> adversarialContents() {
        return Stream.of(
                Arguments.of("boundary prefixes", "\r\n--" + BOUNDARY.substring(0, BOUNDARY.length() - 1)),
                Arguments.of("CR LF runs", "\r\n\r\n\r\n\r"),
                Arguments.of("dash runs", "\r\n----------"),
                Arguments.of("boundary with the wrong last byte", "\r\n--" + BOUNDARY.substring(0, BOUNDARY.length() - 1) + "X"));
    }

    @ParameterizedTest(name = "[{index}] {0}")
    @MethodSource("adversarialContents")
    void fiveMegabytesOfNearMissesParseInLinearTime(String description, String unit) {
        byte[] head = crlf("--" + BOUNDARY + "\nContent-Disposition: form-data; name=\"f\"; filename=\"f\"\n\n");
        byte[] tail = crlf("\n--" + BOUNDARY + "--\n");
        MultiPartLimits limits = MultiPartLimits.DEFAULT.withMaxTotalBytes(-1);
        // 640 KiB, then 5 MiB, parsed in pieces of 8 KiB as a connection would hand them over.
        LinearTime.assertLinear(description + " in a file", 640 * 1024, size -> {
            byte[] content = new byte[size];
            byte[] pattern = unit.getBytes(UTF_8);
            for (int i = 0; i < size; i++) {
                content[i] = pattern[i % pattern.length];
            }
            return () -> {
                MultiPartFormParser parser = new MultiPartFormParser(BOUNDARY, limits, spoolDirectory);
                parser.parse(ByteBuffer.wrap(head), false);
                for (int offset = 0; offset < size; offset += 8192) {
                    parser.parse(ByteBuffer.wrap(content, offset, Math.min(8192, size - offset)), false);
                }
                parser.parse(ByteBuffer.wrap(tail), true);
                try (MultiPartForm form = parser.getForm()) {
                    Part part = form.getPart("f");
                    assertEquals(size, part.getLength());
                    try (var in = part.newInputStream()) {
                        assertArrayEquals(content, in.readAllBytes());
                    }
                }
            };
        });
    }

    @Test
    void randomFormsSplitRandomlyParseBackToTheirParts() {
        Random random = new Random(20261121);
        String boundary = "xy";
        byte[] alphabet = "\r\n-xy ".getBytes(UTF_8);
        for (int round = 0; round < 300; round++) {
            List<String> contents = new ArrayList<>();
            StringBuilder body = new StringBuilder(random.nextBoolean() ? "" : "pre\r\n-");
            for (int count = random.nextInt(4); contents.size() < count;) {
                StringBuilder content = new StringBuilder();
                for (int length = random.nextInt(40); content.length() < length;) {
                    content.append((char) alphabet[random.nextInt(alphabet.length)]);
                }
                if (content.indexOf("\r\n--" + boundary) >= 0) {
                    continue;
                }
                if (contents.isEmpty() && body.isEmpty()) {
                    body.append("--").append(boundary);
                } else if (contents.isEmpty()) {
                    body.append("\r\n--").append(boundary);
                }
                body.append("\r\nContent-Disposition: form-data; name=p").append(contents.size()).append("\r\n\r\n")
                        .append(content).append("\r\n--").append(boundary);
                contents.add(content.toString());
            }
            if (contents.isEmpty()) {
                body.append(body.isEmpty() ? "--" : "\r\n--").append(boundary);
            }
            body.append("--");
            byte[] bytes = body.toString().getBytes(ISO_8859_1);
            int[] splits = random.ints(random.nextInt(6), 0, bytes.length + 1).sorted().toArray();
            MultiPartLimits limits = MultiPartLimits.DEFAULT.withSpoolThresholdBytes(random.nextInt(30));
            try (MultiPartForm form = parse(new MultiPartFormParser(boundary, limits, spoolDirectory), bytes, splits)) {
                List<String> parsed = form.getParts().stream().map(part -> part.getContentAsString(ISO_8859_1)).toList();
                assertEquals(contents, parsed, "round " + round + ": " + body.toString().replace("\r", "\\r").replace("\n", "\\n"));
            }
        }
    }
}
