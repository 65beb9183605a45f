package io.wharf.http.form;

import java.nio.charset.Charset;
import java.nio.charset.IllegalCharsetNameException;
import java.nio.charset.UnsupportedCharsetException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Objects;

import io.wharf.http.BadMessageException;

/**
 * The parts of one {@code multipart/form-data} body, in the order they came, with lookups by
 * field name and a {@link FormFields} view of the plain fields.
 *
 * <p>Returned by {@link MultiPartFormParser#getForm()}; from then on the caller owns it and
 * must {@link #close()} it, which closes every part and deletes every spool file. Use it from
 * one thread at a time.
 */
public final class MultiPartForm implements AutoCloseable, Iterable<Part> {

    private final List<Part> parts;

    MultiPartForm(List<Part> parts) {
        this.parts = List.copyOf(parts);
    }

    /** @return every part in order; unmodifiable */
    public List<Part> getParts() {
        return parts;
    }

    /** @return the first part named {@code name}, or null */
    public Part getPart(String name) {
        for (Part part : parts) {
            if (part.getName().equals(name)) {
                return part;
            }
        }
        return null;
    }

    /** @return every part named {@code name}, in order; empty when none */
    public List<Part> getParts(String name) {
        List<Part> named = new ArrayList<>(1);
        for (Part part : parts) {
            if (part.getName().equals(name)) {
                named.add(part);
            }
        }
        return List.copyOf(named);
    }

    /** @return the number of parts */
    public int size() {
        return parts.size();
    }

    @Override
    public Iterator<Part> iterator() {
        return parts.iterator();
    }

    /**
     * @param defaultCharset how to read a field whose {@code Content-Type} names no charset
     *     (browsers send none, and use the page's charset, normally UTF-8)
     * @return the parts without a file name as fields, in order; file parts are left out
     * @throws BadMessageException 400 when a field's {@code Content-Type} is malformed or names a
     *     charset this JVM does not have
     * @throws IllegalStateException when a part is closed
     */
    public FormFields getFields(Charset defaultCharset) {
        Objects.requireNonNull(defaultCharset, "defaultCharset");
        FormFields fields = new FormFields();
        for (Part part : parts) {
            if (!part.isFile()) {
                fields.add(part.getName(), part.getContentAsString(charsetOf(part, defaultCharset)));
            }
        }
        return fields;
    }

    /** Closes every part, deleting every spool file. Idempotent; never fails. */
    @Override
    public void close() {
        for (Part part : parts) {
            part.close();
        }
    }

    @Override
    public String toString() {
        return "MultiPartForm" + parts;
    }

    private static Charset charsetOf(Part part, Charset defaultCharset) {
        String contentType = part.getContentType();
        if (contentType == null) {
            return defaultCharset;
        }
        String name = HeaderParameters.parse(contentType, "part Content-Type").get("charset");
        if (name == null) {
            return defaultCharset;
        }
        try {
            return Charset.forName(name);
        } catch (IllegalCharsetNameException | UnsupportedCharsetException unknown) {
            throw new BadMessageException("part Content-Type names an unsupported charset");
        }
    }
}
