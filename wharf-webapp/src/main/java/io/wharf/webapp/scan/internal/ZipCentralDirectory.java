package io.wharf.webapp.scan.internal;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;

/**
 * Finds a zip file's central directory from its end record (and its zip64 end record when the
 * offsets overflow), without reading the rest of the file: the list of every entry with its
 * name, sizes, time and CRC-32. {@link JarKey} hashes it; the class loader's
 * {@link io.wharf.webapp.internal.ClassPathIndex} reads the names in it. Stateless.
 */
public final class ZipCentralDirectory {

    /** The signature of each entry's header in the directory. */
    public static final int ENTRY_SIGNATURE = 0x02014b50;
    /** The length of an entry's header before its name. */
    public static final int ENTRY_LENGTH = 46;
    private static final int END_SIGNATURE = 0x06054b50;
    private static final int END_LENGTH = 22;
    private static final int ZIP64_LOCATOR_SIGNATURE = 0x07064b50;
    private static final int ZIP64_LOCATOR_LENGTH = 20;
    private static final int ZIP64_END_SIGNATURE = 0x06064b50;
    private static final int ZIP64_END_LENGTH = 56;
    private static final int MAX_COMMENT = 0xFFFF;
    /** A central directory beyond this is not read whole: the jar is keyed by its bytes. */
    private static final long MAX_DIRECTORY = 64L * 1024 * 1024;

    private ZipCentralDirectory() {
    }

    /** @return the central directory's offset and length, or null when the end of the file is not a zip end record that points to one */
    public static long[] locate(FileChannel channel, long size) throws IOException {
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

    /** @return {@code length} bytes of the file from {@code position} */
    public static byte[] read(FileChannel channel, long position, int length) throws IOException {
        ByteBuffer buffer = ByteBuffer.allocate(length);
        while (buffer.hasRemaining()) {
            if (channel.read(buffer, position + buffer.position()) < 0) {
                throw new IOException("the file ended before byte " + (position + length));
            }
        }
        return buffer.array();
    }
}
