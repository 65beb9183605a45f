package io.wharf.util.component;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.Test;

class AbstractLifeCycleTest {

    private final List<String> events = new CopyOnWriteArrayList<>();

    /** Records every listener event as "event name". */
    private LifeCycle.Listener recorder() {
        return new LifeCycle.Listener() {
            @Override
            public void starting(LifeCycle component) {
                events.add("starting " + component);
            }

            @Override
            public void started(LifeCycle component) {
                events.add("started " + component);
            }

            @Override
            public void stopping(LifeCycle component) {
                events.add("stopping " + component);
            }

            @Override
            public void stopped(LifeCycle component) {
                events.add("stopped " + component);
            }

            @Override
            public void failed(LifeCycle component, Throwable cause) {
                events.add("failed " + component + " " + cause.getMessage());
            }
        };
    }

    @Test
    void startAndStopAreIdempotent() throws Exception {
        RecordingComponent component = new RecordingComponent("c", events);
        assertTrue(component.isStopped());
        component.stop();
        assertEquals(List.of(), events, "stop() of a never started component");

        component.start();
        component.start();
        assertTrue(component.isStarted());
        assertTrue(component.isRunning());
        component.stop();
        component.stop();
        assertTrue(component.isStopped());
        assertFalse(component.isRunning());
        assertEquals(List.of("start c", "stop c"), events);
    }

    @Test
    void listenersHearEveryChangeInOrder() throws Exception {
        RecordingComponent component = new RecordingComponent("c", events);
        LifeCycle.Listener listener = recorder();
        component.addListener(listener);
        component.start();
        component.stop();
        component.removeListener(listener);
        component.start();
        assertEquals(List.of(
            "starting c{STARTING}", "start c", "started c{STARTED}",
            "stopping c{STOPPING}", "stop c", "stopped c{STOPPED}",
            "start c"), events);
    }

    @Test
    void aFailedStartLeavesItFailedTellsListenersAndThrows() {
        RecordingComponent component = new RecordingComponent("c", events);
        component.startFailure = new IOException("port in use");
        component.addListener(recorder());

        IOException thrown = assertThrows(IOException.class, component::start);
        assertSame(component.startFailure, thrown);
        assertTrue(component.isFailed());
        assertFalse(component.isRunning());
        assertEquals(List.of("starting c{STARTING}", "start c", "failed c{FAILED} port in use"), events);
    }

    @Test
    void stopAfterAFailedStartStillRunsDoStop() throws Exception {
        RecordingComponent component = new RecordingComponent("c", events);
        component.startFailure = new IOException("half started");
        assertThrows(IOException.class, component::start);

        component.stop();
        assertTrue(component.isStopped());
        assertEquals(List.of("start c", "stop c"), events);
    }

    @Test
    void aFailedStopLeavesItFailedAndThrows() throws Exception {
        RecordingComponent component = new RecordingComponent("c", events);
        component.stopFailure = new IllegalStateException("stuck");
        component.start();
        component.addListener(recorder());

        assertSame(component.stopFailure, assertThrows(IllegalStateException.class, component::stop));
        assertTrue(component.isFailed());
        assertEquals(List.of("start c", "stopping c{STOPPING}", "stop c", "failed c{FAILED} stuck"), events);
    }

    @Test
    void aThrowingListenerDoesNotStopTheOthersOrTheStart() throws Exception {
        RecordingComponent component = new RecordingComponent("c", events);
        component.addListener(new LifeCycle.Listener() {
            @Override
            public void starting(LifeCycle c) {
                throw new IllegalStateException("expected by the test");
            }
        });
        component.addListener(recorder());
        component.start();
        assertTrue(component.isStarted());
        assertEquals(List.of("starting c{STARTING}", "start c", "started c{STARTED}"), events);
    }

    @Test
    void isRunningDuringDoStart() throws Exception {
        List<Boolean> seen = new ArrayList<>();
        AbstractLifeCycle component = new AbstractLifeCycle() {
            @Override
            protected void doStart() {
                seen.add(isRunning());
                seen.add(isStarted());
            }
        };
        component.start();
        assertEquals(List.of(true, false), seen);
    }

    @Test
    void staticStartAndStopWrapCheckedFailuresAndIgnoreOtherObjects() {
        RecordingComponent component = new RecordingComponent("c", events);
        component.startFailure = new IOException("no");
        IllegalStateException wrapped = assertThrows(IllegalStateException.class, () -> LifeCycle.start(component));
        assertSame(component.startFailure, wrapped.getCause());
        assertTrue(wrapped.getMessage().contains("Failed to start c"), wrapped.getMessage());

        component.stopFailure = new IllegalArgumentException("unchecked");
        assertSame(component.stopFailure, assertThrows(IllegalArgumentException.class, () -> LifeCycle.stop(component)));

        LifeCycle.start("not a component");
        LifeCycle.stop("not a component");
    }

    @Test
    void dumpIsOneLine() {
        RecordingComponent component = new RecordingComponent("c", events);
        assertEquals("c{STOPPED}" + System.lineSeparator(), component.dump());
    }
}
