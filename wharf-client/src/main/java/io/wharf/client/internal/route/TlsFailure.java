package io.wharf.client.internal.route;

import java.security.cert.CertPathBuilderException;
import java.security.cert.CertPathValidatorException;
import java.security.cert.CertificateException;
import java.util.Locale;
import java.util.concurrent.TimeoutException;
import java.util.regex.Pattern;

import javax.net.ssl.SSLException;
import javax.net.ssl.SSLHandshakeException;

import io.wharf.client.Origin;
import io.wharf.client.Proxy;

/**
 * Describes a failed TLS handshake for the exchange it fails: which origin (and proxy), and why
 * in plain words — the server's certificate is not trusted, it does not name the host, the
 * server was silent past the idle timeout, or what the JDK said — with the original exception
 * as the cause. Stateless; any thread.
 */
final class TlsFailure {

    /** The TLS alert the JDK puts before its own words, as in {@code (certificate_unknown) PKIX path building failed}. */
    private static final Pattern ALERT_PREFIX = Pattern.compile("^\\([a-z_]+\\) (?=.)");

    private TlsFailure() {
    }

    /**
     * @param idleTimeout the connection's idle timeout in milliseconds, for a handshake that timed out
     * @return a {@link TimeoutException} when the handshake timed out, otherwise an
     *     {@link SSLHandshakeException}; each naming {@code origin}, the proxy (if any) and the
     *     reason, caused by {@code cause}
     */
    static Exception describe(Origin origin, Proxy proxy, long idleTimeout, Throwable cause) {
        String where = origin.scheme() + "://" + origin.authority() + (proxy == null ? "" : " (through proxy " + proxy + ")");
        Exception described = timedOut(cause)
                ? new TimeoutException("idle timeout of " + idleTimeout + " ms elapsed during the TLS handshake with " + where)
                : new SSLHandshakeException("TLS handshake with " + where + " failed: " + reason(origin, cause));
        described.initCause(cause);
        return described;
    }

    /**
     * @return whether the idle timeout ended the handshake: the timeout itself, or the failure
     *     of a read that raced with the close it caused (which carries it as its cause)
     */
    private static boolean timedOut(Throwable cause) {
        for (Throwable link = cause; link != null; link = link.getCause()) {
            if (link instanceof TimeoutException) {
                return true;
            }
            if (link instanceof SSLException) {
                // The peer's or the engine's own words: not a timeout, whatever they wrap.
                return false;
            }
        }
        return false;
    }

    private static String reason(Origin origin, Throwable cause) {
        String said = cause.getMessage() == null ? cause.getClass().getSimpleName()
                : ALERT_PREFIX.matcher(cause.getMessage()).replaceFirst("");
        for (Throwable link = cause; link != null; link = link.getCause()) {
            if (link instanceof CertPathBuilderException || link instanceof CertPathValidatorException) {
                return "the server's certificate is not trusted (" + said
                        + "); trust its issuer with HttpClient.setSslContext";
            }
            String message = link.getMessage() == null ? "" : link.getMessage().toLowerCase(Locale.ROOT);
            if (link instanceof CertificateException
                    && (message.contains("subject alternative") || message.contains("no name matching"))) {
                return "the server's certificate does not name " + origin.host() + " (" + said + ")";
            }
            if (message.contains("no_application_protocol")) {
                return "the server speaks none of the protocols offered by ALPN (" + said + ")";
            }
        }
        return said;
    }
}
