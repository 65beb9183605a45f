package io.wharf.server.proxy.internal;

/**
 * A PROXY protocol header was malformed, too long or cut short. Thrown by
 * {@link ProxyHeaderParser} on the thread feeding it; the connection then closes without a
 * response. The message names the problem and never quotes the peer's bytes.
 */
public final class ProxyHeaderException extends RuntimeException {

    public ProxyHeaderException(String message) {
        super(message);
    }
}
