package io.wharf.loadgen.internal;

/**
 * Why a chat message failed: not every member heard it within the request timeout. Its message
 * names the message and how many members it reached; its class name is its kind in the results.
 */
final class MissingDeliveriesException extends RuntimeException {

    MissingDeliveriesException(String message) {
        super(message, null, false, false);
    }
}
