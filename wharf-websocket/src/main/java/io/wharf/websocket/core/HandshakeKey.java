package io.wharf.websocket.core;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Base64;

/**
 * The keys of the opening handshake (RFC 6455 sections 4.1 and 4.2.2): a client's
 * {@code Sec-WebSocket-Key} is 16 random bytes in base64; the server proves it read it with
 * {@code Sec-WebSocket-Accept}, the base64 SHA-1 of the key and a fixed GUID. Stateless; any thread.
 */
public final class HandshakeKey {

    private static final String GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11";
    private static final SecureRandom RANDOM = new SecureRandom();

    private HandshakeKey() {
    }

    /** @return whether {@code key} is base64 for exactly 16 bytes */
    public static boolean isValid(String key) {
        if (key == null || key.length() != 24) {
            return false;
        }
        try {
            return Base64.getDecoder().decode(key).length == 16;
        } catch (IllegalArgumentException x) {
            return false;
        }
    }

    /** @return the {@code Sec-WebSocket-Accept} value answering {@code key} */
    public static String accept(String key) {
        try {
            MessageDigest sha1 = MessageDigest.getInstance("SHA-1");
            return Base64.getEncoder().encodeToString(sha1.digest((key + GUID).getBytes(StandardCharsets.US_ASCII)));
        } catch (NoSuchAlgorithmException x) {
            throw new IllegalStateException("every JDK has SHA-1", x);
        }
    }

    /** @return a fresh client key: 16 random bytes in base64 */
    public static String newKey() {
        byte[] bytes = new byte[16];
        RANDOM.nextBytes(bytes);
        return Base64.getEncoder().encodeToString(bytes);
    }
}
