package io.wharf.server;

import java.util.Objects;

import io.wharf.util.component.AbstractLifeCycle;

/**
 * A connection factory whose connections hand the endpoint on to the connector's factory of
 * another protocol once they have done their part (a PROXY header read, a TLS handshake): it
 * knows its own protocol name and the next one, and finds the next factory with an error that
 * names what is missing. A lifecycle, started with its connector, for factories that prepare
 * something then (a TLS context).
 */
public abstract class ChainedConnectionFactory extends AbstractLifeCycle implements ConnectionFactory {

    private final String protocol;
    private final String nextProtocol;

    protected ChainedConnectionFactory(String protocol, String nextProtocol) {
        this.protocol = Objects.requireNonNull(protocol, "protocol");
        this.nextProtocol = Objects.requireNonNull(nextProtocol, "nextProtocol");
    }

    @Override
    public String getProtocol() {
        return protocol;
    }

    /** @return the protocol of the connector's factory that takes over */
    public String getNextProtocol() {
        return nextProtocol;
    }

    /**
     * @return the connector's factory of the next protocol
     * @throws IllegalStateException when the connector has none
     */
    protected ConnectionFactory next(Connector connector) {
        ConnectionFactory next = connector.getConnectionFactory(nextProtocol);
        if (next == null) {
            throw new IllegalStateException(connector + " has no " + nextProtocol + " connection factory to follow " + protocol);
        }
        return next;
    }
}
