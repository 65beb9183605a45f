package io.wharf.client.internal;

import java.nio.charset.Charset;
import java.nio.charset.IllegalCharsetNameException;
import java.nio.charset.StandardCharsets;
import java.nio.charset.UnsupportedCharsetException;
import java.util.Locale;

import io.wharf.client.ContentResponse;
import io.wharf.client.Request;
import io.wharf.client.Response;
import io.wharf.http.HttpFields;
import io.wharf.http.HttpHeader;
import io.wharf.http.HttpVersion;

/**
 * A complete response and its content bytes, made once the exchange is over; immutable, any
 * thread. The bytes are this object's own (copied out of the network buffers).
 */
public final class BufferedContentResponse implements ContentResponse {

    private final Response response;
    private final byte[] content;

    public BufferedContentResponse(Response response, byte[] content) {
        this.response = response;
        this.content = content;
    }

    @Override
    public Request getRequest() {
        return response.getRequest();
    }

    @Override
    public HttpVersion getVersion() {
        return response.getVersion();
    }

    @Override
    public int getStatus() {
        return response.getStatus();
    }

    @Override
    public String getReason() {
        return response.getReason();
    }

    @Override
    public HttpFields getHeaders() {
        return response.getHeaders();
    }

    @Override
    public HttpFields getTrailers() {
        return response.getTrailers();
    }

    @Override
    public byte[] getContent() {
        return content.clone();
    }

    @Override
    public String getContentAsString() {
        Charset charset = getCharset();
        return new String(content, charset != null ? charset : StandardCharsets.UTF_8);
    }

    @Override
    public String getMediaType() {
        String type = response.getHeaders().get(HttpHeader.CONTENT_TYPE);
        if (type == null) {
            return null;
        }
        int semicolon = type.indexOf(';');
        return (semicolon < 0 ? type : type.substring(0, semicolon)).trim().toLowerCase(Locale.ROOT);
    }

    @Override
    public Charset getCharset() {
        String type = response.getHeaders().get(HttpHeader.CONTENT_TYPE);
        if (type == null) {
            return null;
        }
        for (String parameter : type.split(";")) {
            String trimmed = parameter.trim();
            if (trimmed.regionMatches(true, 0, "charset=", 0, 8)) {
                String name = trimmed.substring(8).replace("\"", "").trim();
                try {
                    return Charset.forName(name);
                } catch (IllegalCharsetNameException | UnsupportedCharsetException x) {
                    return null;
                }
            }
        }
        return null;
    }

    @Override
    public String toString() {
        return "ContentResponse[" + getVersion() + " " + getStatus() + " " + getReason() + ", " + content.length + " bytes]";
    }
}
