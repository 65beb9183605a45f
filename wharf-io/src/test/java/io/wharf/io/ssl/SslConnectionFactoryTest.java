package io.wharf.io.ssl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetSocketAddress;
import java.util.List;
import java.util.function.BiFunction;

import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLParameters;

import org.junit.jupiter.api.Test;

class SslConnectionFactoryTest {

    @Test
    void ipLiteralsAreRecognised() {
        assertTrue(SslConnectionFactory.isIpLiteral("127.0.0.1"));
        assertTrue(SslConnectionFactory.isIpLiteral("::1"));
        assertTrue(SslConnectionFactory.isIpLiteral("fe80::1%eth0"));
        assertFalse(SslConnectionFactory.isIpLiteral("localhost"));
        assertFalse(SslConnectionFactory.isIpLiteral("1.example.org"));
        assertFalse(SslConnectionFactory.isIpLiteral("10.0.0.1.nip.io"));
    }

    @Test
    void theDefaultSelectorPrefersTheServersOrder() {
        BiFunction<SSLEngine, List<String>, String> selector = SslConnectionFactory.preferring(List.of("h2", "http/1.1"));
        assertEquals("h2", selector.apply(null, List.of("http/1.1", "h2")));
        assertEquals("http/1.1", selector.apply(null, List.of("http/1.1")));
        assertEquals("", selector.apply(null, List.of()), "a client without ALPN gets none");
        assertNull(selector.apply(null, List.of("spdy/3")), "no common protocol: the handshake is refused");
    }

    @Test
    void clientEnginesVerifyHostNamesAndSendSni() {
        SslConnectionFactory factory = SslConnectionFactory.forClient(TestCertificates.clientContext());
        factory.setApplicationProtocols(List.of("h2", "http/1.1"));
        SSLParameters parameters = factory.newEngine(new InetSocketAddress("localhost", 8443)).getSSLParameters();
        assertEquals("HTTPS", parameters.getEndpointIdentificationAlgorithm());
        assertEquals(1, parameters.getServerNames().size());
        assertEquals(List.of("h2", "http/1.1"), List.of(parameters.getApplicationProtocols()));

        factory.setEndpointIdentificationAlgorithm(null);
        assertNull(factory.newEngine(new InetSocketAddress("localhost", 8443)).getSSLParameters().getEndpointIdentificationAlgorithm());
    }

    @Test
    void withoutAnyModernProtocolNothingIsEnabled() {
        IllegalStateException refused = assertThrows(IllegalStateException.class,
            () -> SslConnectionFactory.secureProtocols(new String[] {"SSLv3", "TLSv1", "TLSv1.1"}));
        assertTrue(refused.getMessage().contains("1.2"), refused.getMessage());
    }
}
