package io.wharf.io;

import java.io.EOFException;

/**
 * The other side closed, or the endpoint was closed, while an operation waited for it:
 * a pending read or write is failed with this. A normal end of a connection, not a bug,
 * and logged quietly.
 */
public class EofException extends EOFException {

    public EofException(String message) {
        super(message);
    }

    public EofException(String message, Throwable cause) {
        super(message);
        initCause(cause);
    }
}
