package io.wharf.servlet.internal;

import java.util.Locale;

import jakarta.servlet.http.Cookie;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpServletResponseWrapper;

/**
 * The response an included servlet writes to (Servlet 6.1 section 9.3): its content goes into
 * the including response, but what would change the status or the headers is ignored.
 * One thread at a time.
 */
final class IncludedResponse extends HttpServletResponseWrapper {

    IncludedResponse(HttpServletResponse wrapped) {
        super(wrapped);
    }

    @Override
    public void setStatus(int status) {
    }

    @Override
    public void sendError(int status, String message) {
    }

    @Override
    public void sendError(int status) {
    }

    @Override
    public void sendRedirect(String location) {
    }

    @Override
    public void sendRedirect(String location, boolean clearBuffer) {
    }

    @Override
    public void sendRedirect(String location, int status) {
    }

    @Override
    public void sendRedirect(String location, int status, boolean clearBuffer) {
    }

    @Override
    public void setHeader(String name, String value) {
    }

    @Override
    public void addHeader(String name, String value) {
    }

    @Override
    public void setDateHeader(String name, long date) {
    }

    @Override
    public void addDateHeader(String name, long date) {
    }

    @Override
    public void setIntHeader(String name, int value) {
    }

    @Override
    public void addIntHeader(String name, int value) {
    }

    @Override
    public void addCookie(Cookie cookie) {
    }

    @Override
    public void setContentType(String type) {
    }

    @Override
    public void setCharacterEncoding(String charset) {
    }

    @Override
    public void setCharacterEncoding(java.nio.charset.Charset charset) {
    }

    @Override
    public void setContentLength(int length) {
    }

    @Override
    public void setContentLengthLong(long length) {
    }

    @Override
    public void setLocale(Locale locale) {
    }

    @Override
    public void setBufferSize(int size) {
    }

    @Override
    public void reset() {
    }

    @Override
    public void resetBuffer() {
    }
}
