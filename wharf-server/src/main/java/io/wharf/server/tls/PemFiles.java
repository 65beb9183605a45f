package io.wharf.server.tls;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.spec.InvalidKeySpecException;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import javax.crypto.Cipher;
import javax.crypto.EncryptedPrivateKeyInfo;
import javax.crypto.SecretKeyFactory;
import javax.crypto.spec.PBEKeySpec;

/**
 * Reads PEM files (RFC 7468) for a {@link ServerTlsContext}: certificate chains
 * ({@code CERTIFICATE} blocks, leaf first) and private keys in PKCS#8 ({@code PRIVATE KEY}),
 * encrypted PKCS#8 ({@code ENCRYPTED PRIVATE KEY}, with a password) or PKCS#1 RSA
 * ({@code RSA PRIVATE KEY}, wrapped into PKCS#8 here). Other key formats (SEC1
 * {@code EC PRIVATE KEY}, legacy OpenSSL-encrypted keys) fail with a message saying how to
 * convert them. Called when the context is built or reloaded, on the caller's thread.
 */
final class PemFiles {

    private static final Pattern BLOCK = Pattern.compile("-----BEGIN ([A-Z0-9 ]+)-----([A-Za-z0-9+/=\\s]*?)-----END \\1-----");
    /** The DER prefix of a PKCS#8 PrivateKeyInfo around an RSA key: version 0, rsaEncryption, NULL parameters. */
    private static final byte[] RSA_ALGORITHM = {0x02, 0x01, 0x00, 0x30, 0x0d, 0x06, 0x09, 0x2a, (byte) 0x86, 0x48, (byte) 0x86,
        (byte) 0xf7, 0x0d, 0x01, 0x01, 0x01, 0x05, 0x00};

    private PemFiles() {
    }

    /** A PEM block: its label and its DER bytes. */
    record Block(String label, byte[] der) {
    }

    static List<Block> read(Path file) throws IOException {
        String text = Files.readString(file, StandardCharsets.US_ASCII);
        List<Block> blocks = new ArrayList<>();
        Matcher matcher = BLOCK.matcher(text);
        while (matcher.find()) {
            try {
                blocks.add(new Block(matcher.group(1), Base64.getMimeDecoder().decode(matcher.group(2))));
            } catch (IllegalArgumentException x) {
                throw new IOException(file + ": a " + matcher.group(1) + " block is not valid Base64", x);
            }
        }
        if (blocks.isEmpty()) {
            throw new IOException(file + " holds no PEM block (-----BEGIN ...-----)");
        }
        return blocks;
    }

    /** @return the certificates of {@code file}, in file order (a chain: the leaf first) */
    static Certificate[] certificates(Path file) throws IOException, GeneralSecurityException {
        CertificateFactory factory = CertificateFactory.getInstance("X.509");
        List<Certificate> chain = new ArrayList<>();
        for (Block block : read(file)) {
            if (block.label().equals("CERTIFICATE")) {
                chain.add(factory.generateCertificate(new ByteArrayInputStream(block.der())));
            }
        }
        if (chain.isEmpty()) {
            throw new IOException(file + " holds no CERTIFICATE block");
        }
        return chain.toArray(Certificate[]::new);
    }

    /**
     * @param password for an encrypted key; null otherwise
     * @return the first private key of {@code file}
     */
    static PrivateKey privateKey(Path file, char[] password) throws IOException, GeneralSecurityException {
        for (Block block : read(file)) {
            byte[] pkcs8 = switch (block.label()) {
                case "PRIVATE KEY" -> block.der();
                case "RSA PRIVATE KEY" -> wrapRsa(block.der());
                case "ENCRYPTED PRIVATE KEY" -> decrypt(file, block.der(), password);
                case "EC PRIVATE KEY" -> throw new IOException(file + ": SEC1 EC keys are not read; convert it to PKCS#8 with"
                        + " 'openssl pkcs8 -topk8 -nocrypt -in " + file.getFileName() + "'");
                default -> null;
            };
            if (pkcs8 != null) {
                return keyOf(file, pkcs8);
            }
        }
        throw new IOException(file + " holds no PRIVATE KEY, RSA PRIVATE KEY or ENCRYPTED PRIVATE KEY block");
    }

    private static byte[] decrypt(Path file, byte[] der, char[] password) throws IOException, GeneralSecurityException {
        if (password == null) {
            throw new IOException(file + ": the private key is encrypted and no key password was given");
        }
        EncryptedPrivateKeyInfo info = new EncryptedPrivateKeyInfo(der);
        String algorithm = info.getAlgName();
        if (algorithm.equals("PBES2") || algorithm.equals("1.2.840.113549.1.5.13")) {
            // OpenSSL's default: the JDK names the whole scheme (e.g. PBEWithHmacSHA256AndAES_256) in the parameters.
            algorithm = info.getAlgParameters().toString();
        }
        SecretKeyFactory factory;
        Cipher cipher;
        try {
            factory = SecretKeyFactory.getInstance(algorithm);
            cipher = Cipher.getInstance(algorithm);
        } catch (GeneralSecurityException x) {
            throw new IOException(file + ": the private key is encrypted with " + algorithm + ", which this JDK cannot decrypt", x);
        }
        cipher.init(Cipher.DECRYPT_MODE, factory.generateSecret(new PBEKeySpec(password)), info.getAlgParameters());
        try {
            return info.getKeySpec(cipher).getEncoded();
        } catch (InvalidKeySpecException | IllegalArgumentException x) {
            throw new IOException(file + ": the private key could not be decrypted (wrong password?)", x);
        }
    }

    private static PrivateKey keyOf(Path file, byte[] pkcs8) throws IOException {
        for (String algorithm : List.of("RSA", "EC", "Ed25519", "RSASSA-PSS")) {
            try {
                return KeyFactory.getInstance(algorithm).generatePrivate(new PKCS8EncodedKeySpec(pkcs8));
            } catch (GeneralSecurityException tryNext) {
                // not this algorithm
            }
        }
        throw new IOException(file + ": the private key is not an RSA, EC or Ed25519 key in PKCS#8");
    }

    /** Wraps a PKCS#1 RSAPrivateKey into a PKCS#8 PrivateKeyInfo. */
    private static byte[] wrapRsa(byte[] pkcs1) {
        byte[] octetString = concat(new byte[] {0x04}, length(pkcs1.length), pkcs1);
        byte[] body = concat(RSA_ALGORITHM, octetString);
        return concat(new byte[] {0x30}, length(body.length), body);
    }

    /** @return a DER length */
    private static byte[] length(int length) {
        if (length < 0x80) {
            return new byte[] {(byte) length};
        }
        if (length < 0x100) {
            return new byte[] {(byte) 0x81, (byte) length};
        }
        if (length < 0x10000) {
            return new byte[] {(byte) 0x82, (byte) (length >> 8), (byte) length};
        }
        return new byte[] {(byte) 0x83, (byte) (length >> 16), (byte) (length >> 8), (byte) length};
    }

    private static byte[] concat(byte[]... parts) {
        int total = 0;
        for (byte[] part : parts) {
            total += part.length;
        }
        byte[] all = new byte[total];
        int at = 0;
        for (byte[] part : parts) {
            System.arraycopy(part, 0, all, at, part.length);
            at += part.length;
        }
        return all;
    }
}
