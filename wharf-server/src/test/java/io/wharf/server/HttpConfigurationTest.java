package io.wharf.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

import org.junit.jupiter.api.Test;

import io.wharf.http.HttpParser;

/** The parser limits a configuration hands to every connection: one instance, made again when a setting changes. */
class HttpConfigurationTest {

    @Test
    void everyConnectionSharesOneParserLimits() {
        HttpConfiguration configuration = new HttpConfiguration();
        assertSame(configuration.toParserLimits(), configuration.toParserLimits());
        assertEquals(HttpParser.Limits.DEFAULT, configuration.toParserLimits());
    }

    @Test
    void theLimitsFollowTheSettings() {
        HttpConfiguration configuration = new HttpConfiguration();
        HttpParser.Limits before = configuration.toParserLimits();
        configuration.setRequestHeaderSize(4096);
        HttpParser.Limits sized = configuration.toParserLimits();
        assertNotSame(before, sized);
        assertEquals(4096, sized.maxHeaderBytes());
        assertEquals(8192, sized.maxRequestLineBytes(), "the request line has a limit of its own");
        configuration.setRequestUriSize(2048);
        assertEquals(2048, configuration.toParserLimits().maxRequestLineBytes());
        assertEquals(4096, configuration.toParserLimits().maxHeaderBytes());
        configuration.setMaxRequestFields(20);
        assertEquals(20, configuration.toParserLimits().maxFields());
        assertEquals(4096, configuration.toParserLimits().maxHeaderBytes());
        assertSame(configuration.toParserLimits(), configuration.toParserLimits());
    }
}
