package io.wharf.webapp.scan.internal;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
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

    private static final int END_SIGNATURE = 0x06054b50;
    private static final int END_LENGTH = 22;
    private static final int ZIP64_LOCATOR_SIGNATURE = 0x07064b50;
    private static final int ZIP64_LOCATOR_LENGTH = 20;
    private static final int ZIP64_END_SIGNATURE = 0x06064b50;
    private static final int ZIP64_END_LENGTH = 56;
    private static final int MAX_COMMENT = 0xFFFF;
    /** A central directory beyond this is not read whole: the jar is keyed by its bytes. */
    private static final long MAX_DIRECTORY = 64L * 1024 * 1024;

    private JarKey() {
    }

    /** @return the key of {@code jar}: 64 lower-case hex digits */
    public static String of(Path jar) throws IOException {
        try (FileChannel channel = FileChannel.open(jar, StandardOpenOption.READ)) {
            long size = channel.size();
            long[] directory = directory(channel, size);
            if (directory == null) {
                return sha256(channel, size);
            }
            MessageDigest digest = ScanCache.newDigest();
            digest.update(("zip directory of " + size + " bytes\n").getBytes(StandardCharsets.US_ASCII));
            digest.update(read(channel, directory[0], (int) directory[1]));
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

    /** @return the central directory's offset and length, or null when the end of the file is not a zip end record that points to one */
    static long[] directory(FileChannel channel, long size) throws IOException {
        if (size < END_LENGTH) {
            return null;
        }
        int tailLength = (int) Math.min(size, END_LENGTH + MAX_COMMENT);
        ByteBuffer tail = ByteBuffer.wrap(read(channel, size - tailLength, tailLength)).order(ByteOrder.LITTLE_ENDIAN);
        for (int at = tailLength - END_LENGTH; at >= 0; at--) {
            // The end record whose comment runs exactly to the end of the file.
            if (tail.getInt(at) == END_SIGNATURE && at + END_LENGTH + Short.toUnsignedInt(tail.getShort(at + 20)) == tailLength) {
                long endAt = size - tailLength + at;
                long length = Integer.toUnsignedLong(tail.getInt(at + 12));
                long offset = Integer.toUnsignedLong(tail.getInt(at + 16));
                if (length == 0xFFFFFFFFL || offset == 0xFFFFFFFFL) {
                    return zip64Directory(channel, endAt);
                }
                return valid(offset, length, endAt);
            }
        }
        return null;
    }

    private static long[] zip64Directory(FileChannel channel, long endAt) throws IOException {
        long locatorAt = endAt - ZIP64_LOCATOR_LENGTH;
        if (locatorAt < 0) {
            return null;
        }
        ByteBuffer locator = ByteBuffer.wrap(read(channel, locatorAt, ZIP64_LOCATOR_LENGTH)).order(ByteOrder.LITTLE_ENDIAN);
        long zip64EndAt = locator.getLong(8);
        if (locator.getInt(0) != ZIP64_LOCATOR_SIGNATURE || zip64EndAt < 0 || zip64EndAt + ZIP64_END_LENGTH > locatorAt) {
            return null;
        }
        ByteBuffer end = ByteBuffer.wrap(read(channel, zip64EndAt, ZIP64_END_LENGTH)).order(ByteOrder.LITTLE_ENDIAN);
        if (end.getInt(0) != ZIP64_END_SIGNATURE) {
            return null;
        }
        return valid(end.getLong(48), end.getLong(40), zip64EndAt);
    }

    private static long[] valid(long offset, long length, long limit) {
        return offset >= 0 && length > 0 && length <= MAX_DIRECTORY && offset + length <= limit ? new long[] {offset, length} : null;
    }

    private static byte[] read(FileChannel channel, long position, int length) throws IOException {
        ByteBuffer buffer = ByteBuffer.allocate(length);
        while (buffer.hasRemaining()) {
            if (channel.read(buffer, position + buffer.position()) < 0) {
                throw new IOException("the file ended before byte " + (position + length));
            }
        }
        return buffer.array();
    }
}
