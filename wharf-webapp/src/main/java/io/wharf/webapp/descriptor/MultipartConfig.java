package io.wharf.webapp.descriptor;

/**
 * A servlet's {@code <multipart-config>} or {@code @MultipartConfig}.
 *
 * @param location the directory for stored files, "" for the container's default
 * @param maxFileSize the largest file part in bytes, -1 for no limit
 * @param maxRequestSize the largest multipart request in bytes, -1 for no limit
 * @param fileSizeThreshold the size in bytes above which a part is written to disk
 */
public record MultipartConfig(String location, long maxFileSize, long maxRequestSize, int fileSizeThreshold) {

    /** The defaults of the schema and the annotation. */
    public static final MultipartConfig DEFAULT = new MultipartConfig("", -1, -1, 0);
}
