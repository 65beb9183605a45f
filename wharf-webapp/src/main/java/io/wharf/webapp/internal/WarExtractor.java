package io.wharf.webapp.internal;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Enumeration;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

import io.wharf.webapp.DeploymentException;

/**
 * Extracts a WAR into an empty directory, refusing every entry that would land outside it: a
 * name with a {@code ..} segment, an absolute name ({@code /x}, {@code C:x}), or a backslash
 * (a separator on Windows). It also refuses a WAR that inflates to more than a limit. Called by
 * {@link io.wharf.webapp.WebApplication#prepare} on the deploying thread.
 */
public final class WarExtractor {

    private final long maxBytes;

    /** @param maxBytes the most bytes the entries may inflate to, together */
    public WarExtractor(long maxBytes) {
        this.maxBytes = maxBytes;
    }

    /**
     * @param war the WAR file
     * @param target an empty directory
     * @throws DeploymentException naming the entry that leaves the directory, or the limit passed
     */
    public void extract(Path war, Path target) throws IOException {
        Path root = target.toAbsolutePath().normalize();
        long total = 0;
        try (ZipFile zip = new ZipFile(war.toFile())) {
            for (Enumeration<? extends ZipEntry> entries = zip.entries(); entries.hasMoreElements(); ) {
                ZipEntry entry = entries.nextElement();
                Path file = destination(war, root, entry.getName());
                if (entry.isDirectory()) {
                    Files.createDirectories(file);
                    continue;
                }
                Files.createDirectories(file.getParent());
                try (InputStream in = zip.getInputStream(entry); OutputStream out = Files.newOutputStream(file)) {
                    total += copy(in, out, maxBytes - total, war);
                }
            }
        }
    }

    /** @return where the entry goes under {@code root} */
    static Path destination(Path war, Path root, String name) {
        String reason = unsafe(name);
        if (reason != null) {
            throw new DeploymentException(war + ": entry '" + name + "' " + reason + ", outside the web application's directory; refused");
        }
        Path file = root.resolve(name).normalize();
        if (!file.startsWith(root)) {
            throw new DeploymentException(war + ": entry '" + name + "' resolves outside the web application's directory; refused");
        }
        return file;
    }

    /** @return why the entry name is unsafe, or null when it is a plain relative path */
    private static String unsafe(String name) {
        if (name.isEmpty() || name.startsWith("/") || name.length() > 1 && name.charAt(1) == ':') {
            return "is an absolute path";
        }
        if (name.indexOf('\\') >= 0) {
            return "has a backslash, a separator that could climb";
        }
        for (String segment : name.split("/")) {
            if (segment.equals("..")) {
                return "climbs with '..'";
            }
        }
        return null;
    }

    private long copy(InputStream in, OutputStream out, long allowed, Path war) throws IOException {
        byte[] buffer = new byte[64 * 1024];
        long copied = 0;
        for (int read = in.read(buffer); read >= 0; read = in.read(buffer)) {
            copied += read;
            if (copied > allowed) {
                throw new DeploymentException(war + " inflates to more than " + maxBytes + " bytes; refused (WebAppSettings.maxExtractedBytes)");
            }
            out.write(buffer, 0, read);
        }
        return copied;
    }
}
