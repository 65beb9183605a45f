/**
 * Wharf's utility layer: callbacks and their invocation types, reference-counted buffers
 * and their pool, the lock-free object pool and stacks, tries, the thread pool, the adaptive
 * execution strategy, the scheduler and the component lifecycle.
 */
module io.wharf.util {
    requires org.slf4j;

    exports io.wharf.util;
    exports io.wharf.util.buffer;
    exports io.wharf.util.component;
    exports io.wharf.util.thread;
    exports io.wharf.util.concurrent;
}
