package io.wharf.loadgen.internal;

/**
 * Why a chat message could not be sent: its member's session is closed (the room closes a member
 * that falls behind with 1008). Its message names the member and how its session closed; its
 * class name is its kind in the results.
 */
final class MemberClosedException extends RuntimeException {

    MemberClosedException(String message) {
        super(message, null, false, false);
    }
}
