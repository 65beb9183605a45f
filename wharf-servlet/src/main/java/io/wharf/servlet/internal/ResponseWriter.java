package io.wharf.servlet.internal;

import java.io.IOException;
import java.io.OutputStream;
import java.io.Writer;
import java.nio.charset.Charset;

/**
 * The characters of a response's {@code getWriter()}, encoded in the response's charset and
 * handed to its output stream at once: no buffer of its own, so the response buffer is the only
 * one and {@code resetBuffer} clears everything written. A high surrogate waits for its low
 * half. One thread at a time.
 */
final class ResponseWriter extends Writer {

    private final OutputStream output;
    private final Charset charset;
    private char highSurrogate;

    ResponseWriter(OutputStream output, Charset charset) {
        this.output = output;
        this.charset = charset;
    }

    @Override
    public void write(int c) throws IOException {
        char ch = (char) c;
        if (Character.isHighSurrogate(ch)) {
            highSurrogate = ch;
            return;
        }
        if (highSurrogate != 0) {
            char high = highSurrogate;
            highSurrogate = 0;
            output.write(new String(new char[] {high, ch}).getBytes(charset));
            return;
        }
        output.write(String.valueOf(ch).getBytes(charset));
    }

    @Override
    public void write(char[] chars, int offset, int length) throws IOException {
        write(new String(chars, offset, length));
    }

    @Override
    public void write(String text, int offset, int length) throws IOException {
        write(text.substring(offset, offset + length));
    }

    @Override
    public void write(String text) throws IOException {
        if (text.isEmpty()) {
            return;
        }
        String whole = text;
        if (highSurrogate != 0) {
            whole = highSurrogate + whole;
            highSurrogate = 0;
        }
        char lastChar = whole.charAt(whole.length() - 1);
        if (Character.isHighSurrogate(lastChar)) {
            highSurrogate = lastChar;
            whole = whole.substring(0, whole.length() - 1);
        }
        output.write(whole.getBytes(charset));
    }

    @Override
    public void flush() throws IOException {
        output.flush();
    }

    @Override
    public void close() throws IOException {
        output.close();
    }
}
