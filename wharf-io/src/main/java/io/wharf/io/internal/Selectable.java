package io.wharf.io.internal;

/**
 * What a {@link SelectorLoop} holds as the attachment of a selection key: an endpoint, a
 * server channel accepting, or a channel connecting. Both methods run on the selector's
 * producing thread, one key at a time, and must not block.
 */
public interface Selectable {

    /**
     * The key was selected.
     *
     * @return the task to run for it (the execution strategy decides on which thread), or null
     */
    Runnable onSelected();

    /** Called after every selected key of one select was handled: apply the interest wanted now. */
    void updateKey();

    /** The selector is stopping: release what this holds. */
    void onSelectorClosing();
}
