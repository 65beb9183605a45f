package io.wharf.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class AcceptEncodingTest {

    private static final List<String> SERVER = List.of("br", "gzip", "zstd");

    /** RFC 9110 section 12.5.3 against the codings br, gzip and zstd, preferred in that order. */
    @ParameterizedTest
    @CsvSource(delimiter = '|', textBlock = """
            gzip                                       | gzip
            gzip;q=0.5, identity;q=1                   | identity
            gzip;q=0.5                                 | gzip
            gzip, br                                   | br
            br;q=0.9, gzip                             | gzip
            GZIP;Q=0.2, Br;q=0.1                       | gzip
            x-gzip                                     | gzip
            x-gzip;q=0.4, identity;q=0.5               | identity
            gzip;q=0.3, x-gzip;q=0.9, identity;q=0.5   | identity
            x-gzip;q=0, *                              | br
            *                                          | br
            *;q=0.5, identity                          | identity
            *;q=0                                      | identity
            identity;q=0                               | identity
            identity;q=0, gzip;q=0.1                   | gzip
            zstd;q=0.8, *;q=0.1                        | zstd
            br;q=0, gzip;q=0, zstd;q=0                 | identity
            deflate                                    | identity
            gzip;q=2                                   | identity
            """)
    void choosesByQualityThenTheServersOrder(String acceptEncoding, String expected) {
        assertEquals(expected, AcceptEncoding.parse(List.of(acceptEncoding)).choose(SERVER), acceptEncoding);
    }

    @Test
    void withoutTheFieldOrWithAnEmptyOneIdentityIsChosen() {
        assertEquals("identity", AcceptEncoding.parse(List.of()).choose(SERVER));
        assertEquals("identity", AcceptEncoding.of(HttpFields.build()).choose(SERVER));
        assertEquals("identity", AcceptEncoding.parse(List.of("")).choose(SERVER));
        assertFalse(AcceptEncoding.ABSENT.isIdentityRefused());
    }

    @Test
    void severalFieldLinesAreOneList() {
        HttpFields fields = HttpFields.build().add(HttpHeader.ACCEPT_ENCODING, "gzip;q=0.4").add(HttpHeader.ACCEPT_ENCODING, "identity;q=0.6");
        assertEquals("identity", AcceptEncoding.of(fields).choose(SERVER));
        assertEquals(400, AcceptEncoding.of(fields).quality("x-gzip"));
    }

    @Test
    void tellsWhenIdentityIsRefused() {
        assertTrue(AcceptEncoding.parse(List.of("gzip, identity;q=0")).isIdentityRefused());
        assertTrue(AcceptEncoding.parse(List.of("gzip, *;q=0")).isIdentityRefused());
        assertFalse(AcceptEncoding.parse(List.of("gzip, *;q=0, identity")).isIdentityRefused());
        assertFalse(AcceptEncoding.parse(List.of("gzip")).isIdentityRefused());
    }
}
