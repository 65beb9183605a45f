package io.wharf.http.form;

import java.nio.file.Path;

/**
 * Where the content of a {@link Part} lives, as data: in memory, in a temporary spool file the
 * part deletes when closed, in a file the application chose with {@link Part#writeTo(Path)}
 * (never deleted by Wharf), or nowhere once the part is closed.
 */
sealed interface PartContent {

    /** Content small enough to stay in memory; the array is owned by the part and never changed. */
    record InMemory(byte[] bytes) implements PartContent {
    }

    /** Content spooled to a temporary file that the part deletes when closed. */
    record TemporaryFile(Path path) implements PartContent {
    }

    /** Content the application moved to a file of its own; the part reads it but never deletes it. */
    record KeptFile(Path path) implements PartContent {
    }

    /** The part was closed; its content is gone. */
    record Released() implements PartContent {
    }
}
