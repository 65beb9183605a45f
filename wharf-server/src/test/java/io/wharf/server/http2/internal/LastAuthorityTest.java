package io.wharf.server.http2.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.wharf.http.HostPort;
import io.wharf.http.HttpField;
import io.wharf.http.HttpHeader;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** A connection's last authority: parsed (and made a Host field) once while it repeats, again when it changes, a bad one refused. */
@Timeout(5)
class LastAuthorityTest {

    private final LastAuthority last = new LastAuthority();

    @Test
    void theSameAuthorityIsParsedOnce() {
        HostPort first = last.parse("example.com:8443");
        assertEquals("example.com", first.getHost());
        assertEquals(8443, first.getPort());
        assertSame(first, last.parse("example.com:8443"));
        assertSame(first, last.parse(new String("example.com:8443")), "equal text, another string");
    }

    @Test
    void aDifferentAuthorityIsNoticed() {
        HostPort first = last.parse("example.com:8443");
        HostPort other = last.parse("example.com:8444");
        assertEquals(8444, other.getPort());
        HostPort v6 = last.parse("[::1]");
        assertEquals("[::1]", v6.getHost());
        assertEquals(-1, v6.getPort());
        HostPort again = last.parse("example.com:8443");
        assertEquals(first.getHost(), again.getHost());
        assertEquals(8443, again.getPort());
    }

    @Test
    void theHostFieldIsMadeOnceWhileTheAuthorityRepeats() {
        HttpField first = last.hostField("example.com");
        assertEquals(HttpHeader.HOST, first.getHeader());
        assertEquals("example.com", first.getValue());
        assertSame(first, last.hostField(new String("example.com")));
        HttpField other = last.hostField("example.org:8080");
        assertEquals("example.org:8080", other.getValue());
        assertEquals(HttpHeader.HOST, other.getHeader());
        assertEquals("example.com", last.hostField("example.com").getValue());
    }

    @Test
    void aBadAuthorityIsRefusedAndTheLastGoodOneStays() {
        HostPort good = last.parse("example.com");
        assertThrows(IllegalArgumentException.class, () -> last.parse("exa mple.com"));
        assertThrows(IllegalArgumentException.class, () -> last.parse("example.com:99999"));
        assertSame(good, last.parse("example.com"));
    }
}
