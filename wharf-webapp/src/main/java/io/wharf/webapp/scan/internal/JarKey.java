package io.wharf.webapp.scan.internal;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.util.HexFormat;

/**
 * The key of a jar in the {@link ScanCache}: the SHA-256 of the jar's length and of its zip
 * central directory, which names every entry with the CRC-32 of its uncompressed bytes, its
 * sizes and its time. Reading the directory costs a few kilobytes a jar where hashing its bytes
 * read all of them: 40 MB for a Spring application, a fifth of a deployment's samples with the
 * cache filled.
 *
 * <p><b>The trade.</b> A jar whose entry changed while keeping its name, sizes, time and CRC-32
 * gets the old key. That takes a deliberate CRC-32 collision by whoever builds the application's
 * jars, who can put any class in them anyway; a rebuilt jar changes its times, an edited class
 * its CRC-32. A file whose end is not a well-formed zip directory (a self-extracting archive, a
 * damaged jar) is keyed by all its bytes, as before.
 */
public final class JarKey {

    private JarKey() {
    }

    /** @return the key of {@code jar}: 64 lower-case hex digits */
    public static String of(Path jar) throws IOException {
        try (FileChannel channel = FileChannel.open(jar, StandardOpenOption.READ)) {
            long size = channel.size();
            long[] directory = ZipCentralDirectory.locate(channel, size);
            if (directory == null) {
                return sha256(channel, size);
            }
            MessageDigest digest = ScanCache.newDigest();
            digest.update(("zip directory of " + size + " bytes\n").getBytes(StandardCharsets.US_ASCII));
            digest.update(ZipCentralDirectory.read(channel, directory[0], (int) directory[1]));
            return HexFormat.of().formatHex(digest.digest());
        }
    }

    /** @return the SHA-256 of all the file's bytes, as 64 lower-case hex digits */
    public static String sha256(Path file) throws IOException {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            return sha256(channel, channel.size());
        }
    }

    private static String sha256(FileChannel channel, long size) throws IOException {
        MessageDigest digest = ScanCache.newDigest();
        ByteBuffer buffer = ByteBuffer.allocate(64 * 1024);
        for (long position = 0; position < size; ) {
            int read = channel.read(buffer.clear(), position);
            if (read < 0) {
                break;
            }
            position += read;
            digest.update(buffer.flip());
        }
        return HexFormat.of().formatHex(digest.digest());
    }

}
