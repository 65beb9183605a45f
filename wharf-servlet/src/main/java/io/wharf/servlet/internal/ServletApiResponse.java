package io.wharf.servlet.internal;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.Charset;
import java.nio.charset.IllegalCharsetNameException;
import java.nio.charset.StandardCharsets;
import java.nio.charset.UnsupportedCharsetException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;

import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.ServletResponseWrapper;
import jakarta.servlet.http.Cookie;
import jakarta.servlet.http.HttpServletResponse;

import io.wharf.http.HttpCookie;
import io.wharf.http.HttpDateFormat;
import io.wharf.http.HttpField;
import io.wharf.http.HttpFields;
import io.wharf.http.HttpHeader;
import io.wharf.http.HttpStatus;
import io.wharf.http.MimeTypes;
import io.wharf.server.Response;

/**
 * The {@link HttpServletResponse} of one exchange (Servlet 6.1 chapter 5), over the core
 * {@link Response}: status and headers go straight to the core response's fields until it
 * commits; content goes through the response buffer ({@link ResponseOutput}); the content
 * type and charset follow the rules of section 5.6 (the charset is fixed once
 * {@code getWriter} was called; {@code setLocale} picks one from the context's mappings when
 * none was set).
 *
 * <p><b>Threads.</b> One thread at a time, like the request.
 */
public final class ServletApiResponse implements HttpServletResponse {

    /** The buffer size when none is set: large enough for most pages to get a Content-Length. */
    public static final int DEFAULT_BUFFER_SIZE = 32 * 1024;

    /** What the application asked the content for. */
    private enum OutputMode { NONE, STREAM, WRITER }

    private final ServletExchange exchange;
    private final Response core;
    private final ResponseOutput output;
    private OutputMode mode = OutputMode.NONE;
    private PrintWriter writer;
    private String mimeType;
    private String charset;
    private boolean charsetExplicit;
    private Locale locale;
    private long contentLength = -1;
    private String errorMessage;
    private boolean errorPending;
    private Supplier<Map<String, String>> trailers;
    private boolean writtenByCore;

    ServletApiResponse(ServletExchange exchange, Response core) {
        this.exchange = exchange;
        this.core = core;
        this.output = new ResponseOutput(this, core, exchange, DEFAULT_BUFFER_SIZE);
    }

    /** @return the response under every wrapper of {@code response}; null when it is not one */
    public static ServletApiResponse unwrap(ServletResponse response) {
        ServletResponse current = response;
        while (current instanceof ServletResponseWrapper wrapper) {
            current = wrapper.getResponse();
        }
        return current instanceof ServletApiResponse base ? base : null;
    }

    /** @return the core response */
    public Response core() {
        return core;
    }

    ResponseOutput output() {
        return output;
    }

    // ---- the exchange's view ------------------------------------------------------------------

    /** @return whether {@code sendError} was called and its page is still to be written */
    boolean isErrorPending() {
        return errorPending;
    }

    String errorMessage() {
        return errorMessage;
    }

    /**
     * The error page is about to be written (section 10.9.2): output is taken again, the error
     * is no longer pending, and the page starts afresh, free to choose its own content type,
     * charset and writer or stream.
     */
    void beginErrorPage() {
        errorPending = false;
        output.resume();
        output.resetBuffer();
        mode = OutputMode.NONE;
        writer = null;
        mimeType = null;
        charset = null;
        charsetExplicit = false;
        contentLength = -1;
    }

    /** @return the content length set, or -1 */
    long contentLengthLimit() {
        return contentLength;
    }

    /** Just before the first core write: nothing to add today but the trailers; kept as the one place for it. */
    void beforeCommit() {
        if (trailers != null && core.getTrailersSupplier() == null) {
            Supplier<Map<String, String>> supplier = trailers;
            core.setTrailersSupplier(() -> {
                Map<String, String> map = supplier.get();
                if (map == null || map.isEmpty()) {
                    return null;
                }
                HttpFields.Mutable fields = HttpFields.build(map.size());
                map.forEach(fields::add);
                return fields;
            });
        }
    }

    /** A response closed before it committed: its whole content is {@code length} bytes. */
    void setContentLengthOnClose(int length) {
        int status = core.getStatus();
        if (contentLength < 0 && status >= 200 && status != 204 && status != 304 && trailers == null) {
            core.getHeaders().put(HttpHeader.CONTENT_LENGTH, length);
        }
    }

    /** Ends the content. The writer keeps nothing back (see {@link ResponseWriter}), so closing the output is enough. */
    void closeOutput() throws IOException {
        if (!writtenByCore) {
            output.close();
        }
    }

    /**
     * A core handler writes this response from now on (the default servlet's files): the
     * servlet output stays out of it and the end of the exchange does not close it again.
     */
    public void handOverToCore() {
        if (output.isWritten()) {
            output.resetBuffer();
        }
        writtenByCore = true;
    }

    /** The core handler did not take the response after all. */
    public void takeBackFromCore() {
        writtenByCore = false;
    }

    // ---- content ---------------------------------------------------------------------------------

    @Override
    public ServletOutputStream getOutputStream() {
        if (mode == OutputMode.WRITER) {
            throw new IllegalStateException("getWriter() was already called on this response");
        }
        mode = OutputMode.STREAM;
        return output;
    }

    @Override
    public PrintWriter getWriter() throws IOException {
        if (mode == OutputMode.STREAM) {
            throw new IllegalStateException("getOutputStream() was already called on this response");
        }
        if (writer == null) {
            if (charset == null) {
                String fallback = exchange.context().getResponseCharacterEncoding();
                charset = fallback != null ? fallback : StandardCharsets.ISO_8859_1.name();
                updateContentType();
            }
            Charset encoding;
            try {
                encoding = Charset.forName(charset);
            } catch (IllegalCharsetNameException | UnsupportedCharsetException x) {
                throw new java.io.UnsupportedEncodingException("unknown response character encoding: " + charset);
            }
            writer = new PrintWriter(new ResponseWriter(output, encoding), false);
            mode = OutputMode.WRITER;
        }
        return writer;
    }

    @Override
    public void setBufferSize(int size) {
        output.setBufferSize(size);
    }

    @Override
    public int getBufferSize() {
        return output.getBufferSize();
    }

    @Override
    public void flushBuffer() throws IOException {
        if (writer != null) {
            writer.flush();
        }
        output.flush();
    }

    @Override
    public void resetBuffer() {
        if (core.isCommitted()) {
            throw new IllegalStateException("resetBuffer: the response is already committed");
        }
        output.resetBuffer();
    }

    @Override
    public boolean isCommitted() {
        return core.isCommitted() || errorPending;
    }

    @Override
    public void reset() {
        if (core.isCommitted()) {
            throw new IllegalStateException("reset: the response is already committed");
        }
        core.reset();
        output.resetBuffer();
        mode = OutputMode.NONE;
        writer = null;
        mimeType = null;
        charset = null;
        charsetExplicit = false;
        locale = null;
        contentLength = -1;
        trailers = null;
    }

    // ---- content type and charset (section 5.6) ------------------------------------------------------

    @Override
    public String getCharacterEncoding() {
        if (charset != null) {
            return charset;
        }
        String fallback = exchange.context().getResponseCharacterEncoding();
        return fallback != null ? fallback : StandardCharsets.ISO_8859_1.name();
    }

    @Override
    public void setCharacterEncoding(String encoding) {
        if (!changeable() || writer != null) {
            return;
        }
        charset = encoding;
        charsetExplicit = encoding != null;
        updateContentType();
    }

    @Override
    public String getContentType() {
        if (mimeType == null) {
            return null;
        }
        return charset == null ? mimeType : mimeType + ";charset=" + charset;
    }

    @Override
    public void setContentType(String type) {
        if (!changeable()) {
            return;
        }
        if (type == null) {
            mimeType = null;
            if (writer == null) {
                charset = null;
                charsetExplicit = false;
            }
            core.getHeaders().remove(HttpHeader.CONTENT_TYPE);
            return;
        }
        String base = MimeTypes.getBaseType(type);
        mimeType = base == null ? type.trim() : base;
        String named = MimeTypes.getCharsetFromContentType(type);
        if (named != null && writer == null) {
            charset = named;
            charsetExplicit = true;
        }
        updateContentType();
    }

    @Override
    public void setLocale(Locale locale) {
        if (!changeable() || locale == null) {
            return;
        }
        this.locale = locale;
        core.getHeaders().put(HttpHeader.CONTENT_LANGUAGE, locale.toLanguageTag());
        if (!charsetExplicit && writer == null) {
            String mapped = exchange.context().localeEncoding(locale);
            if (mapped != null) {
                charset = mapped;
                updateContentType();
            }
        }
    }

    @Override
    public Locale getLocale() {
        return locale != null ? locale : Locale.getDefault();
    }

    private void updateContentType() {
        if (mimeType != null) {
            core.getHeaders().put(HttpHeader.CONTENT_TYPE, getContentType());
        }
    }

    @Override
    public void setContentLength(int length) {
        setContentLengthLong(length);
    }

    @Override
    public void setContentLengthLong(long length) {
        if (!changeable()) {
            return;
        }
        if (length < 0) {
            contentLength = -1;
            core.getHeaders().remove(HttpHeader.CONTENT_LENGTH);
            return;
        }
        contentLength = length;
        core.getHeaders().put(HttpHeader.CONTENT_LENGTH, length);
    }

    /** @return whether the status and headers can still change: not committed, not after sendError, not in an include */
    private boolean changeable() {
        return !core.isCommitted() && !errorPending;
    }

    // ---- status, errors, redirects -------------------------------------------------------------------

    @Override
    public void setStatus(int status) {
        if (changeable()) {
            if (status < 100 || status > 999) {
                throw new IllegalArgumentException("not an HTTP status code: " + status);
            }
            core.setStatus(status);
        }
    }

    @Override
    public int getStatus() {
        return core.getStatus();
    }

    @Override
    public void sendError(int status) throws IOException {
        sendError(status, null);
    }

    @Override
    public void sendError(int status, String message) throws IOException {
        if (isCommitted()) {
            throw new IllegalStateException("sendError(" + status + "): the response is already committed");
        }
        core.setStatus(status);
        errorMessage = message;
        errorPending = true;
        output.suspend();
    }

    @Override
    public void sendRedirect(String location, int status, boolean clearBuffer) throws IOException {
        if (isCommitted()) {
            throw new IllegalStateException("sendRedirect: the response is already committed");
        }
        if (location == null) {
            throw new IllegalArgumentException("sendRedirect: no location");
        }
        if (clearBuffer) {
            output.resetBuffer();
        }
        core.setStatus(status);
        core.getHeaders().put(HttpHeader.LOCATION, Redirects.resolve(exchange.request(), location));
        if (clearBuffer) {
            core.getHeaders().remove(HttpHeader.CONTENT_TYPE);
            core.getHeaders().remove(HttpHeader.CONTENT_LENGTH);
            mimeType = null;
            contentLength = -1;
            closeOutput();
        }
    }

    // ---- headers ------------------------------------------------------------------------------------

    @Override
    public void addCookie(Cookie cookie) {
        if (!changeable()) {
            return;
        }
        HttpCookie.Builder builder = HttpCookie.build(cookie.getName(), cookie.getValue());
        for (Map.Entry<String, String> attribute : cookie.getAttributes().entrySet()) {
            String name = attribute.getKey();
            String value = attribute.getValue();
            switch (name.toLowerCase(Locale.ROOT)) {
                case "domain" -> builder.domain(value);
                case "path" -> builder.path(value);
                case "max-age" -> builder.maxAge(Long.parseLong(value));
                case "secure" -> builder.secure(true);
                case "httponly" -> builder.httpOnly(true);
                case "samesite" -> builder.sameSite(HttpCookie.SameSite.from(value));
                case "partitioned" -> builder.partitioned(true);
                default -> builder.attribute(name, value);
            }
        }
        Response.addCookie(core, builder.build());
    }

    @Override
    public boolean containsHeader(String name) {
        return core.getHeaders().contains(name);
    }

    /**
     * Adds {@code ;jsessionid=} when URL tracking is on and the client did not send the session
     * id in a cookie (section 7.1.3); otherwise returns the URL as it is.
     */
    @Override
    public String encodeURL(String url) {
        if (url == null || !exchange.context().getEffectiveSessionTrackingModes().contains(jakarta.servlet.SessionTrackingMode.URL)) {
            return url;
        }
        ServletApiRequest request = exchange.request();
        ServletSession session = request.currentSession();
        if (session == null || !session.isValid() || request.isRequestedSessionIdFromCookie()) {
            return url;
        }
        int end = url.length();
        int query = url.indexOf('?');
        int fragment = url.indexOf('#');
        if (query >= 0) {
            end = query;
        }
        if (fragment >= 0 && fragment < end) {
            end = fragment;
        }
        return url.substring(0, end) + ";jsessionid=" + session.getId() + url.substring(end);
    }

    @Override
    public String encodeRedirectURL(String url) {
        return encodeURL(url);
    }

    @Override
    public void setHeader(String name, String value) {
        if (name == null || !changeable()) {
            return;
        }
        if (HttpHeader.CONTENT_TYPE.is(name)) {
            setContentType(value);
        } else if (HttpHeader.CONTENT_LENGTH.is(name)) {
            setContentLengthLong(value == null ? -1 : Long.parseLong(value.trim()));
        } else if (value == null) {
            core.getHeaders().remove(name);
        } else {
            core.getHeaders().put(name, value);
        }
    }

    @Override
    public void addHeader(String name, String value) {
        if (name == null || value == null || !changeable()) {
            return;
        }
        if (HttpHeader.CONTENT_TYPE.is(name)) {
            setContentType(value);
        } else if (HttpHeader.CONTENT_LENGTH.is(name)) {
            setContentLengthLong(Long.parseLong(value.trim()));
        } else {
            core.getHeaders().add(name, value);
        }
    }

    @Override
    public void setDateHeader(String name, long date) {
        setHeader(name, HttpDateFormat.format(date));
    }

    @Override
    public void addDateHeader(String name, long date) {
        addHeader(name, HttpDateFormat.format(date));
    }

    @Override
    public void setIntHeader(String name, int value) {
        setHeader(name, Integer.toString(value));
    }

    @Override
    public void addIntHeader(String name, int value) {
        addHeader(name, Integer.toString(value));
    }

    @Override
    public String getHeader(String name) {
        return name == null ? null : core.getHeaders().get(name);
    }

    @Override
    public Collection<String> getHeaders(String name) {
        return name == null ? List.of() : new ArrayList<>(core.getHeaders().getValuesList(name));
    }

    @Override
    public Collection<String> getHeaderNames() {
        LinkedHashSet<String> names = new LinkedHashSet<>();
        for (HttpField field : core.getHeaders()) {
            names.add(field.getName());
        }
        return names;
    }

    @Override
    public void setTrailerFields(Supplier<Map<String, String>> supplier) {
        if (core.isCommitted()) {
            throw new IllegalStateException("setTrailerFields: the response is already committed");
        }
        if (exchange.request().core().getConnectionMetaData().getHttpVersion().getVersion() < 11) {
            throw new IllegalStateException("setTrailerFields: HTTP/1.0 has no trailers");
        }
        trailers = supplier;
    }

    @Override
    public Supplier<Map<String, String>> getTrailerFields() {
        return trailers;
    }

    @Override
    public String toString() {
        return "ServletApiResponse[" + getStatus() + " " + HttpStatus.getReason(getStatus()) + "]";
    }
}
