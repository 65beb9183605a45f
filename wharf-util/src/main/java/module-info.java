/**
 * Wharf's utility layer: callbacks and their invocation types, reference-counted buffers
 * and their pool, the lock-free object pool, tries, the thread pool, the adaptive
 * execution strategy, the scheduler and the component lifecycle.
 */
module io.wharf.util {
    requires transitive org.slf4j;

    exports io.wharf.util;
    exports io.wharf.util.buffer;
    exports io.wharf.util.component;
    exports io.wharf.util.thread;
    // The lock-free stacks behind the buffer pool also pool the server's per-request codecs.
    exports io.wharf.util.internal to io.wharf.server;
}
