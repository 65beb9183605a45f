package io.wharf.servlet.internal;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;

import jakarta.servlet.MultipartConfigElement;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.Part;

import io.wharf.http.BadMessageException;
import io.wharf.http.HttpField;
import io.wharf.http.HttpHeader;
import io.wharf.http.form.FormFields;
import io.wharf.http.form.MultiPartForm;
import io.wharf.http.form.MultiPartFormParser;
import io.wharf.http.form.MultiPartLimits;
import io.wharf.server.Request;

/**
 * The parts of a {@code multipart/form-data} request (Servlet 6.1 section 3.2), read at the
 * first {@code getParts}, {@code getPart} or {@code getParameter} by wharf-http's multipart
 * parser within the servlet's {@link MultipartConfigElement}: {@code maxFileSize} bounds each
 * part, {@code maxRequestSize} the body, and parts above {@code fileSizeThreshold} are spooled to
 * {@code location} (relative to the context's temporary directory). Spooled files are deleted
 * when the exchange ends, unless {@link Part#write} kept them.
 *
 * <p><b>Threads.</b> One per exchange, used by one thread at a time.
 */
final class RequestParts {

    private final MultiPartForm form;
    private final List<Part> parts;

    private RequestParts(MultiPartForm form, Path location) {
        this.form = form;
        List<Part> list = new ArrayList<>(form.size());
        for (io.wharf.http.form.Part part : form) {
            list.add(new FormPart(part, location));
        }
        this.parts = List.copyOf(list);
    }

    /**
     * Reads the body as parts.
     *
     * @throws IllegalStateException when the servlet has no multipart config (section 3.2)
     * @throws ServletException when the request is not {@code multipart/form-data}
     */
    static RequestParts read(ServletExchange exchange, Request request, MultipartConfigElement config, Charset charset)
            throws IOException, ServletException {
        if (config == null) {
            throw new IllegalStateException("getParts: servlet " + exchange.request().match().target().getName()
                + " has no multipart config (@MultipartConfig or <multipart-config>)");
        }
        String contentType = request.getHeaders().get(HttpHeader.CONTENT_TYPE);
        String boundary;
        try {
            boundary = MultiPartFormParser.boundaryOf(contentType);
        } catch (BadMessageException x) {
            throw new ServletException("getParts: the request is not multipart/form-data: " + contentType, x);
        }
        Path location = location(exchange, config);
        MultiPartLimits limits = MultiPartLimits.DEFAULT
            .withMaxPartBytes(config.getMaxFileSize())
            .withMaxTotalBytes(config.getMaxRequestSize())
            .withSpoolThresholdBytes(Math.max(0, config.getFileSizeThreshold()));
        Files.createDirectories(location);
        try (MultiPartFormParser parser = new MultiPartFormParser(boundary, limits, location);
             InputStream input = exchange.request().getInputStream()) {
            byte[] bytes = new byte[16 * 1024];
            int read;
            while ((read = input.read(bytes)) >= 0) {
                parser.parse(ByteBuffer.wrap(bytes, 0, read), false);
            }
            parser.parse(ByteBuffer.allocate(0), true);
            return new RequestParts(parser.getForm(), location);
        } catch (BadMessageException x) {
            if (x.getStatus() == 413) {
                // The getParts javadoc: a part over maxFileSize or a body over maxRequestSize is an IllegalStateException.
                throw new IllegalStateException("getParts: " + x.getMessage() + " (the servlet's multipart config: maxFileSize "
                    + config.getMaxFileSize() + ", maxRequestSize " + config.getMaxRequestSize() + ")", x);
            }
            throw x;
        }
    }

    private static Path location(ServletExchange exchange, MultipartConfigElement config) {
        Path temp = exchange.context().tempDirectory();
        Path base = temp != null ? temp : Path.of(System.getProperty("java.io.tmpdir"));
        String location = config.getLocation();
        if (location == null || location.isEmpty()) {
            return base;
        }
        Path path = Path.of(location);
        return path.isAbsolute() ? path : base.resolve(path);
    }

    Collection<Part> all() {
        return parts;
    }

    Part get(String name) {
        for (Part part : parts) {
            if (part.getName().equals(name)) {
                return part;
            }
        }
        return null;
    }

    /** @return the parts without a file name as parameters (section 3.1.1), in {@code charset} or UTF-8 */
    FormFields fields(Charset charset) {
        return form.getFields(charset == null ? StandardCharsets.UTF_8 : charset);
    }

    /** Deletes what is spooled, at the end of the exchange. */
    void close() {
        form.close();
    }

    /** A part as the Servlet API shows it. */
    private record FormPart(io.wharf.http.form.Part part, Path location) implements Part {

        @Override
        public InputStream getInputStream() {
            return part.newInputStream();
        }

        @Override
        public String getContentType() {
            return part.getContentType();
        }

        @Override
        public String getName() {
            return part.getName();
        }

        @Override
        public String getSubmittedFileName() {
            return part.getFileName();
        }

        @Override
        public long getSize() {
            return part.getLength();
        }

        @Override
        public void write(String fileName) throws IOException {
            Path target = Path.of(fileName);
            try {
                part.writeTo(target.isAbsolute() ? target : location.resolve(target));
            } catch (UncheckedIOException x) {
                throw x.getCause();
            }
        }

        @Override
        public void delete() {
            part.close();
        }

        @Override
        public String getHeader(String name) {
            return part.getHeaders().get(name);
        }

        @Override
        public Collection<String> getHeaders(String name) {
            return part.getHeaders().getValuesList(name);
        }

        @Override
        public Collection<String> getHeaderNames() {
            LinkedHashSet<String> names = new LinkedHashSet<>();
            for (HttpField field : part.getHeaders()) {
                names.add(field.getName());
            }
            return names;
        }
    }
}
