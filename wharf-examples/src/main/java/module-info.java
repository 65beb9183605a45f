/** Runnable examples of Wharf, and the demo. */
module io.wharf.examples {
    requires io.wharf.io;

    exports io.wharf.examples;
}
