package io.wharf.server.tls;

import java.net.Socket;
import java.security.Principal;
import java.security.PrivateKey;
import java.security.cert.CertificateParsingException;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;

import javax.net.ssl.ExtendedSSLSession;
import javax.net.ssl.SNIHostName;
import javax.net.ssl.SNIServerName;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLSession;
import javax.net.ssl.StandardConstants;
import javax.net.ssl.X509ExtendedKeyManager;

/**
 * A server key manager over several certificates that picks, for each handshake, the one whose
 * names (DNS subject alternative names, else the subject's CN; {@code *.example.com} matches
 * one label) match the host name the client sent by SNI; the first certificate of the right
 * key type when none matches or the client sent no name. Called by the JDK's handshake, on the
 * thread that runs it; immutable once made.
 */
final class SniKeyManager extends X509ExtendedKeyManager {

    private final X509ExtendedKeyManager keys;
    /** Aliases in the order the certificates were added: the first is the default. */
    private final List<String> aliases;

    SniKeyManager(X509ExtendedKeyManager keys, List<String> aliases) {
        this.keys = keys;
        this.aliases = List.copyOf(aliases);
    }

    @Override
    public String chooseEngineServerAlias(String keyType, Principal[] issuers, SSLEngine engine) {
        return choose(keyType, engine == null ? null : engine.getHandshakeSession());
    }

    @Override
    public String chooseServerAlias(String keyType, Principal[] issuers, Socket socket) {
        return choose(keyType, null);
    }

    private String choose(String keyType, SSLSession handshake) {
        String host = requestedHost(handshake);
        String fallback = null;
        for (String alias : aliases) {
            X509Certificate[] chain = keys.getCertificateChain(alias);
            if (chain == null || chain.length == 0 || !chain[0].getPublicKey().getAlgorithm().equalsIgnoreCase(keyAlgorithm(keyType))) {
                continue;
            }
            if (host != null && names(chain[0]).stream().anyMatch(name -> matches(name, host))) {
                return alias;
            }
            if (fallback == null) {
                fallback = alias;
            }
        }
        return fallback;
    }

    /** The JDK asks with "RSA", "EC", "RSASSA-PSS", "EdDSA"... or a TLS 1.2 key exchange such as "EC_EC". */
    private static String keyAlgorithm(String keyType) {
        int underscore = keyType.indexOf('_');
        String algorithm = underscore > 0 ? keyType.substring(0, underscore) : keyType;
        return algorithm.equals("EdDSA") ? "Ed25519" : algorithm;
    }

    private static String requestedHost(SSLSession handshake) {
        if (handshake instanceof ExtendedSSLSession extended) {
            for (SNIServerName name : extended.getRequestedServerNames()) {
                if (name.getType() == StandardConstants.SNI_HOST_NAME) {
                    return ((SNIHostName) name).getAsciiName().toLowerCase(Locale.ROOT);
                }
            }
        }
        return null;
    }

    /** @return the certificate's DNS names, or its subject's CN when it has none */
    static List<String> names(X509Certificate certificate) {
        List<String> names = new ArrayList<>();
        try {
            Collection<List<?>> alternatives = certificate.getSubjectAlternativeNames();
            if (alternatives != null) {
                for (List<?> entry : alternatives) {
                    if (Integer.valueOf(2).equals(entry.get(0))) {
                        names.add(entry.get(1).toString().toLowerCase(Locale.ROOT));
                    }
                }
            }
        } catch (CertificateParsingException ignored) {
            // no usable alternative names: fall back to the CN
        }
        if (names.isEmpty()) {
            for (String part : certificate.getSubjectX500Principal().getName().split(",")) {
                if (part.trim().startsWith("CN=")) {
                    names.add(part.trim().substring(3).toLowerCase(Locale.ROOT));
                }
            }
        }
        return names;
    }

    /** @return whether certificate name {@code name} covers {@code host}: exactly, or {@code *.} for one leftmost label */
    static boolean matches(String name, String host) {
        if (name.startsWith("*.")) {
            int dot = host.indexOf('.');
            return dot > 0 && host.substring(dot).equals(name.substring(1));
        }
        return name.equals(host);
    }

    @Override
    public String[] getServerAliases(String keyType, Principal[] issuers) {
        return keys.getServerAliases(keyType, issuers);
    }

    @Override
    public X509Certificate[] getCertificateChain(String alias) {
        return keys.getCertificateChain(alias);
    }

    @Override
    public PrivateKey getPrivateKey(String alias) {
        return keys.getPrivateKey(alias);
    }

    @Override
    public String[] getClientAliases(String keyType, Principal[] issuers) {
        return null;
    }

    @Override
    public String chooseClientAlias(String[] keyType, Principal[] issuers, Socket socket) {
        return null;
    }
}
