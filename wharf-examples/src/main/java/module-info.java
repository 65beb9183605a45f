/** Runnable examples of Wharf, and the demo. */
module io.wharf.examples {
    requires io.wharf.server;

    exports io.wharf.examples;
}
