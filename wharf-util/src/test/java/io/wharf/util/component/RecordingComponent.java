package io.wharf.util.component;

import java.util.List;

/**
 * Test helper: a component that appends "start name" / "stop name" to a shared list and can
 * be told to fail; its {@code toString()} is its name and state, so that dumps are exact.
 */
class RecordingComponent extends AbstractLifeCycle {

    final String name;
    final List<String> events;
    Exception startFailure;
    Exception stopFailure;

    RecordingComponent(String name, List<String> events) {
        this.name = name;
        this.events = events;
    }

    @Override
    protected void doStart() throws Exception {
        events.add("start " + name);
        if (startFailure != null) {
            throw startFailure;
        }
    }

    @Override
    protected void doStop() throws Exception {
        events.add("stop " + name);
        if (stopFailure != null) {
            throw stopFailure;
        }
    }

    @Override
    public String toString() {
        return name + "{" + state() + "}";
    }
}
