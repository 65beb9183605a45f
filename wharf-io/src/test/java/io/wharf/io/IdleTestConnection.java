package io.wharf.io;

import io.wharf.util.InvocationType;

/** Test connection that never reads: it exists so that a test can drive its endpoint directly. */
public class IdleTestConnection extends AbstractConnection {

    public IdleTestConnection(EndPoint endPoint) {
        super(endPoint, Runnable::run);
    }

    @Override
    public void onFillable() {
    }

    @Override
    public InvocationType invocationType() {
        return InvocationType.NON_BLOCKING;
    }
}
