package io.wharf.util.buffer;

/**
 * A resource shared by reference count. It starts with one reference, held by whoever
 * acquired it; {@link #retain()} adds one; {@link #release()} drops one, and the last
 * release frees the resource (for a pooled buffer: back to its pool).
 *
 * <p>The rule of ownership: whoever holds a reference releases it exactly once. Releasing
 * more often than retained is a bug and throws {@link IllegalStateException}.
 */
public interface Retainable {

    /** @return whether {@link #retain()} is allowed (false for resources that cannot be shared) */
    default boolean canRetain() {
        return true;
    }

    /**
     * Adds a reference.
     *
     * @throws IllegalStateException when the resource was already freed
     */
    void retain();

    /**
     * Drops a reference.
     *
     * @return true when this call dropped the last reference and freed the resource
     * @throws IllegalStateException when the resource was already freed
     */
    boolean release();

    /** @return whether more than one reference is held */
    boolean isRetained();
}
