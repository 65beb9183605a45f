package io.wharf.client;

import java.io.IOException;
import java.util.Objects;

/**
 * An exchange failed at its proxy: the proxy could not be reached, refused (a 407 or 403
 * answer, a SOCKS5 failure code, credentials refused), or answered something that is not its
 * protocol. The message names the proxy, what was asked and what it answered. Immutable.
 */
public class ProxyException extends IOException {

    private static final long serialVersionUID = 1L;

    private final transient Proxy proxy;

    public ProxyException(Proxy proxy, String message) {
        super(message);
        this.proxy = Objects.requireNonNull(proxy, "proxy");
    }

    public ProxyException(Proxy proxy, String message, Throwable cause) {
        super(message, cause);
        this.proxy = Objects.requireNonNull(proxy, "proxy");
    }

    /** @return the proxy that failed */
    public Proxy getProxy() {
        return proxy;
    }
}
