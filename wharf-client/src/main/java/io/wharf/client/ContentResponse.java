package io.wharf.client;

import java.nio.charset.Charset;

/**
 * A response with its whole content in memory, as returned by {@link Request#send()}. The
 * content was capped while it was received ({@link HttpClient#setMaxResponseContentBytes}).
 * Immutable; any thread.
 */
public interface ContentResponse extends Response {

    /** @return a copy of the content bytes */
    byte[] getContent();

    /** @return the content decoded with the charset of its Content-Type, UTF-8 when none is named */
    String getContentAsString();

    /** @return the media type of the Content-Type field without parameters, or null */
    String getMediaType();

    /** @return the charset named by the Content-Type field, or null */
    Charset getCharset();
}
