package io.wharf.webapp.internal;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.stream.Stream;

/**
 * What tells the deployer that an application changed: for a WAR, its size and modification
 * time; for a directory, the names, sizes and modification times of the files under its
 * WEB-INF (web.xml, classes, jars), folded into one number. Files outside WEB-INF are served as
 * they are and do not redeploy. Made on the deployer's thread at each poll.
 *
 * @param value the fold; equal stamps mean nothing that matters changed
 */
public record SourceStamp(long value) {

    /** @return the stamp of the WAR or directory at {@code source}; one of 0 when it is gone */
    public static SourceStamp of(Path source) throws IOException {
        if (Files.isRegularFile(source)) {
            BasicFileAttributes attributes = Files.readAttributes(source, BasicFileAttributes.class);
            return new SourceStamp(31 * attributes.size() + attributes.lastModifiedTime().toMillis());
        }
        Path webInf = source.resolve("WEB-INF");
        if (!Files.isDirectory(webInf)) {
            return new SourceStamp(0);
        }
        try (Stream<Path> files = Files.walk(webInf)) {
            return new SourceStamp(files.sorted().mapToLong(file -> {
                try {
                    BasicFileAttributes attributes = Files.readAttributes(file, BasicFileAttributes.class);
                    return file.toString().hashCode() * 961L + attributes.size() * 31 + attributes.lastModifiedTime().toMillis();
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }).reduce(17, (fold, one) -> fold * 1_000_003L + one));
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }
}
