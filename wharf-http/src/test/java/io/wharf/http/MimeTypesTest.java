package io.wharf.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Map;

import io.wharf.testing.LinearTime;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;

class MimeTypesTest {

    @ParameterizedTest
    @CsvSource(delimiter = '|', nullValues = "NULL", textBlock = """
            index.html              | text/html
            /docs/a/INDEX.HTM       | text/html
            style.css               | text/css
            app.js                  | text/javascript
            module.MJS              | text/javascript
            data.json               | application/json
            app.js.map              | application/json
            feed.xml                | application/xml
            notes.txt               | text/plain
            table.csv               | text/csv
            README.md               | text/markdown
            config.yaml             | application/yaml
            logo.svg                | image/svg+xml
            photo.JPEG              | image/jpeg
            photo.jpg               | image/jpeg
            anim.gif                | image/gif
            pic.webp                | image/webp
            pic.avif                | image/avif
            favicon.ico             | image/x-icon
            font.woff2              | font/woff2
            font.ttf                | font/ttf
            paper.pdf               | application/pdf
            archive.tar.gz          | application/gzip
            bundle.js.br            | application/x-brotli
            module.wasm             | application/wasm
            clip.mp4                | video/mp4
            song.mp3                | audio/mpeg
            .json                   | application/json
            noextension             | NULL
            file.                   | NULL
            dir.d/file              | NULL
            a.unknownextension      | NULL
            ''                      | NULL
            NULL                    | NULL
            """)
    void mapsExtensionsInAnyCase(String path, String expected) {
        assertEquals(expected, MimeTypes.DEFAULT.getMimeByExtension(path));
    }

    @Test
    void defaultTableHoldsTheCommonWebTypesAndIsImmutable() {
        Map<String, String> map = MimeTypes.DEFAULT.getMimeMap();
        assertTrue(map.size() >= 80, "only " + map.size() + " extensions");
        for (Map.Entry<String, String> entry : map.entrySet()) {
            assertEquals(entry.getKey().toLowerCase(java.util.Locale.ROOT), entry.getKey());
            assertTrue(entry.getValue().indexOf('/') > 0, entry.toString());
        }
        assertThrows(UnsupportedOperationException.class, () -> map.put("x", "y/z"));
        assertFalse(MimeTypes.DEFAULT instanceof MimeTypes.Mutable);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', nullValues = "NULL", textBlock = """
            text/html;charset=utf-8                      | utf-8
            'text/html; Charset="UTF-8"'                 | UTF-8
            'text/html; CHARSET=iso-8859-1 '             | iso-8859-1
            'text/html; a=b; charset=iso-8859-1'         | iso-8859-1
            'text/html;a="x;charset=bad";charset=good'   | good
            'text/html;a="x\\";charset=bad";charset=ok'  | ok
            'text/html;charset="a\\"b"'                  | a"b
            'text/html ; charset = utf-8'                | utf-8
            text/html;charset=x;charset=y                | x
            text/html;charset=;charset=y                 | y
            ;charset=x                                   | x
            text/html                                    | NULL
            text/html;                                   | NULL
            text/html;charset                            | NULL
            text/html;charset=                           | NULL
            'text/html;charset=""'                       | NULL
            'text/html;charset="unterminated'            | NULL
            'text/html;charset=utf 8'                    | NULL
            'text/html;charset=utf-8"'                   | NULL
            text/html;charsets=utf-8                     | NULL
            text/html;xcharset=utf-8                     | NULL
            text/html;;;charset=utf-8                    | utf-8
            text/html,charset=utf-8                      | NULL
            ''                                           | NULL
            NULL                                         | NULL
            """)
    void readsTheCharsetParameter(String contentType, String expected) {
        assertEquals(expected, MimeTypes.getCharsetFromContentType(contentType));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', nullValues = "NULL", textBlock = """
            text/html                           | text/html
            'Text/HTML; charset=utf-8'          | text/html
            '  application/json  '              | application/json
            multipart/form-data; boundary=x     | multipart/form-data
            ''                                  | NULL
            ' ; charset=utf-8'                  | NULL
            NULL                                | NULL
            """)
    void stripsParametersForTheBaseType(String contentType, String expected) {
        assertEquals(expected, MimeTypes.getBaseType(contentType));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', nullValues = "NULL", textBlock = """
            text/html                       | utf-8
            TEXT/CSV                        | utf-8
            text/plain;charset=iso-8859-1   | utf-8
            text/x-anything                 | utf-8
            application/json                | utf-8
            application/problem+json        | utf-8
            application/xml                 | utf-8
            image/svg+xml                   | utf-8
            application/javascript          | utf-8
            image/png                       | NULL
            application/octet-stream        | NULL
            application/x-www-form-urlencoded | NULL
            ''                              | NULL
            NULL                            | NULL
            """)
    void infersCharsetsFromTheType(String type, String expected) {
        assertEquals(expected, MimeTypes.DEFAULT.getCharsetInferredFromType(type));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', nullValues = "NULL", textBlock = """
            text/html                     | true
            text/plain;charset=utf-8      | true
            text/css                      | true
            text/javascript               | true
            application/javascript        | true
            application/json              | true
            application/problem+json      | true
            application/xml               | true
            application/atom+xml          | true
            image/svg+xml                 | true
            application/wasm              | true
            font/ttf                      | true
            image/x-icon                  | true
            text/event-stream             | false
            image/png                     | false
            image/jpeg                    | false
            image/webp                    | false
            video/mp4                     | false
            audio/mpeg                    | false
            font/woff2                    | false
            application/zip               | false
            application/gzip              | false
            application/x-brotli          | false
            application/pdf               | false
            application/octet-stream      | false
            ''                            | false
            NULL                          | false
            """)
    void tellsWhatIsWorthCompressing(String type, boolean expected) {
        assertEquals(expected, MimeTypes.DEFAULT.isCompressible(type));
    }

    @Test
    void mutableCopiesChangeWithoutTouchingTheDefault() {
        MimeTypes.Mutable types = new MimeTypes.Mutable();
        assertEquals("text/html", types.getMimeByExtension("a.html"));
        assertNull(types.addMapping(".JAVA", "text/x-java"));
        assertEquals("text/x-java", types.getMimeByExtension("Main.java"));
        assertEquals("text/html", types.addMapping("html", "text/html;charset=utf-8"));
        assertEquals("text/html;charset=utf-8", types.getMimeByExtension("a.HTML"));
        assertEquals("image/png", types.removeMapping("PNG"));
        assertNull(types.getMimeByExtension("a.png"));
        assertNull(types.removeMapping("png"));

        assertEquals("text/html", MimeTypes.DEFAULT.getMimeByExtension("a.html"));
        assertNull(MimeTypes.DEFAULT.getMimeByExtension("Main.java"));
        assertEquals("image/png", MimeTypes.DEFAULT.getMimeByExtension("a.png"));

        MimeTypes.Mutable copy = new MimeTypes.Mutable(types);
        types.addMapping("kt", "text/x-kotlin");
        assertEquals("text/x-java", copy.getMimeByExtension("Main.java"));
        assertNull(copy.getMimeByExtension("Main.kt"));
    }

    @Test
    void mutableCopiesDecideCharsetsAndCompression() {
        MimeTypes.Mutable types = new MimeTypes.Mutable();
        types.setInferredCharset("application/x-custom", "ISO-8859-1");
        types.setInferredCharset("text/csv; header=present", null);
        types.setCompressible("image/png", true);
        types.setCompressible("text/plain", false);
        assertEquals("iso-8859-1", types.getCharsetInferredFromType("Application/X-Custom"));
        assertNull(types.getCharsetInferredFromType("text/csv"));
        assertTrue(types.isCompressible("image/png"));
        assertFalse(types.isCompressible("text/plain;charset=utf-8"));
        assertEquals("utf-8", MimeTypes.DEFAULT.getCharsetInferredFromType("text/csv"));
        assertFalse(MimeTypes.DEFAULT.isCompressible("image/png"));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', nullValues = "NULL", textBlock = """
            ''          | text/plain
            .           | text/plain
            tar.gz      | application/gzip
            a/b         | text/plain
            'a b'       | text/plain
            NULL        | text/plain
            txt         | plain
            txt         | /plain
            txt         | text/
            txt         | 'text /plain'
            txt         | 'text/plain\r\nX-Evil: 1'
            txt         | text/plain;charset=é
            txt         | ''
            txt         | NULL
            """)
    void mutableRefusesMalformedMappings(String extension, String type) {
        MimeTypes.Mutable types = new MimeTypes.Mutable();
        assertThrows(IllegalArgumentException.class, () -> types.addMapping(extension, type));
        assertEquals("text/plain", types.getMimeByExtension("a.txt"));
    }

    @Test
    void readsHostileContentTypesInLinearTime() {
        LinearTime.assertLinear("content types of 200,000 bytes", 50_000, size -> {
            String semicolons = "text/html" + ";".repeat(4 * size) + "charset=utf-8";
            String quotes = "text/html;a=\"" + "\\\"".repeat(2 * size);
            String equals = "text/html;" + "a=b;".repeat(size);
            return () -> {
                assertEquals("utf-8", MimeTypes.getCharsetFromContentType(semicolons));
                assertNull(MimeTypes.getCharsetFromContentType(quotes));
                assertNull(MimeTypes.getCharsetFromContentType(equals));
            };
        });
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', nullValues = "NULL", textBlock = """
            TEXT_PLAIN              | text/plain                        | TEXT_PLAIN       | NULL
            TEXT_PLAIN_UTF_8        | text/plain;charset=utf-8          | TEXT_PLAIN       | UTF-8
            TEXT_PLAIN_8859_1       | text/plain;charset=iso-8859-1     | TEXT_PLAIN       | ISO-8859-1
            TEXT_HTML               | text/html                         | TEXT_HTML        | NULL
            TEXT_HTML_UTF_8         | text/html;charset=utf-8           | TEXT_HTML        | UTF-8
            TEXT_CSS                | text/css                          | TEXT_CSS         | NULL
            TEXT_JAVASCRIPT         | text/javascript                   | TEXT_JAVASCRIPT  | NULL
            TEXT_XML                | text/xml                          | TEXT_XML         | NULL
            APPLICATION_JSON        | application/json                  | APPLICATION_JSON | NULL
            APPLICATION_JSON_UTF_8  | application/json;charset=utf-8    | APPLICATION_JSON | UTF-8
            APPLICATION_XML         | application/xml                   | APPLICATION_XML  | NULL
            APPLICATION_OCTET_STREAM | application/octet-stream         | APPLICATION_OCTET_STREAM | NULL
            FORM_ENCODED            | application/x-www-form-urlencoded | FORM_ENCODED     | NULL
            MULTIPART_FORM_DATA     | multipart/form-data               | MULTIPART_FORM_DATA | NULL
            MULTIPART_BYTERANGES    | multipart/byteranges              | MULTIPART_BYTERANGES | NULL
            """)
    void typesKnowTheirStringBaseTypeAndCharset(MimeTypes.Type type, String string, MimeTypes.Type baseType, String charset) {
        assertEquals(string, type.asString());
        assertSame(baseType, type.getBaseType());
        assertEquals(charset == null ? null : java.nio.charset.Charset.forName(charset), type.getCharset());
    }

    @ParameterizedTest
    @EnumSource(MimeTypes.Type.class)
    void everyTypeHasItsFieldAndIsFoundByItsString(MimeTypes.Type type) {
        PreEncodedHttpField field = type.getContentTypeField();
        assertSame(field, type.getContentTypeField());
        assertSame(HttpHeader.CONTENT_TYPE, field.getHeader());
        assertEquals(type.asString(), field.getValue());
        ByteBuffer wire = ByteBuffer.allocate(128);
        field.putTo(wire);
        assertEquals("Content-Type: " + type.asString() + "\r\n",
                new String(wire.array(), 0, wire.position(), StandardCharsets.ISO_8859_1));
        assertSame(type, MimeTypes.Type.fromString(type.asString()));
        assertSame(type, MimeTypes.Type.fromString(type.asString().toUpperCase(java.util.Locale.ROOT)));
        assertSame(type, MimeTypes.Type.fromString(type.asString().replace(";", "; ")));
        assertTrue(type.is(type.asString().toUpperCase(java.util.Locale.ROOT)));
        assertEquals(type.getBaseType().asString(), MimeTypes.getBaseType(type.asString()));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', nullValues = "NULL", textBlock = """
            text/plain;charset=UTF-8        | TEXT_PLAIN_UTF_8
            Application/Json                | APPLICATION_JSON
            text/plain;  charset=utf-8      | NULL
            text/plain;charset="utf-8"      | NULL
            text/plai                       | NULL
            text/plain;charset=utf-8x       | NULL
            ''                              | NULL
            NULL                            | NULL
            """)
    void findsOnlyExactSpellingsOfTypes(String string, MimeTypes.Type expected) {
        assertEquals(expected, MimeTypes.Type.fromString(string));
    }
}
