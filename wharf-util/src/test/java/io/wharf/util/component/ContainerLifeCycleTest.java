package io.wharf.util.component;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.Test;

class ContainerLifeCycleTest {

    private final List<String> events = new CopyOnWriteArrayList<>();

    /** A container whose toString() is its name and state, recording its own start and stop. */
    private final class Node extends ContainerLifeCycle {
        private final String name;

        Node(String name) {
            this.name = name;
        }

        @Override
        protected void doStart() throws Exception {
            super.doStart();
            events.add("start " + name);
        }

        @Override
        protected void doStop() throws Exception {
            events.add("stop " + name);
            super.doStop();
        }

        @Override
        public String toString() {
            return name + "{" + state() + "}";
        }
    }

    @Test
    void startsManagedChildrenInOrderAndStopsThemInReverse() throws Exception {
        Node container = new Node("root");
        RecordingComponent a = new RecordingComponent("a", events);
        RecordingComponent b = new RecordingComponent("b", events);
        RecordingComponent c = new RecordingComponent("c", events);
        assertTrue(container.addBean(a));
        assertTrue(container.addBean(b));
        assertTrue(container.addBean(c));
        assertTrue(container.isManaged(a));

        container.start();
        assertTrue(a.isStarted() && b.isStarted() && c.isStarted());
        container.stop();
        assertTrue(a.isStopped() && b.isStopped() && c.isStopped());
        assertEquals(List.of("start a", "start b", "start c", "start root", "stop root", "stop c", "stop b", "stop a"), events);
    }

    @Test
    void unmanagedChildrenAreLeftAlone() throws Exception {
        Node container = new Node("root");
        RecordingComponent shared = new RecordingComponent("shared", events);
        container.addBean(shared, false);
        assertFalse(container.isManaged(shared));

        container.start();
        container.stop();
        assertTrue(shared.isStopped());
        assertEquals(List.of("start root", "stop root"), events);
    }

    @Test
    void aChildAlreadyRunningIsAddedUnmanaged() throws Exception {
        Node container = new Node("root");
        RecordingComponent running = new RecordingComponent("running", events);
        running.start();
        container.addBean(running);
        assertFalse(container.isManaged(running));

        container.start();
        container.stop();
        assertTrue(running.isStarted(), "the container stopped a child it does not manage");
    }

    @Test
    void aManagedChildAddedToARunningContainerStartsAndRemovingItStopsIt() throws Exception {
        Node container = new Node("root");
        container.start();
        RecordingComponent late = new RecordingComponent("late", events);
        container.addBean(late);
        assertTrue(late.isStarted());
        assertTrue(container.isManaged(late));

        assertTrue(container.removeBean(late));
        assertTrue(late.isStopped());
        assertFalse(container.contains(late));
        assertFalse(container.removeBean(late));

        RecordingComponent unmanaged = new RecordingComponent("unmanaged", events);
        unmanaged.start();
        container.addBean(unmanaged);
        container.removeBean(unmanaged);
        assertTrue(unmanaged.isStarted(), "removing an unmanaged child stopped it");
    }

    @Test
    void stopGoesOnPastFailingChildrenAndThrowsTheFirstFailure() throws Exception {
        Node container = new Node("root");
        RecordingComponent a = new RecordingComponent("a", events);
        RecordingComponent b = new RecordingComponent("b", events);
        RecordingComponent c = new RecordingComponent("c", events);
        container.addBean(a);
        container.addBean(b);
        container.addBean(c);
        container.start();
        events.clear();
        a.stopFailure = new IOException("a failed");
        c.stopFailure = new IOException("c failed");

        IOException thrown = assertThrows(IOException.class, container::stop);
        // Children stop in reverse order: c fails first, then b stops, then a fails.
        assertSame(c.stopFailure, thrown);
        assertEquals(1, thrown.getSuppressed().length);
        assertSame(a.stopFailure, thrown.getSuppressed()[0]);
        assertEquals(List.of("stop root", "stop c", "stop b", "stop a"), events);
        assertTrue(b.isStopped());
        assertTrue(container.isFailed());
    }

    @Test
    void aChildFailingToStartFailsTheContainerAndStopReleasesTheOthers() throws Exception {
        Node container = new Node("root");
        RecordingComponent a = new RecordingComponent("a", events);
        RecordingComponent b = new RecordingComponent("b", events);
        RecordingComponent c = new RecordingComponent("c", events);
        b.startFailure = new IOException("b cannot start");
        container.addBean(a);
        container.addBean(b);
        container.addBean(c);

        assertSame(b.startFailure, assertThrows(IOException.class, container::start));
        assertTrue(container.isFailed());
        assertTrue(c.isStopped(), "a child after the failing one was started");

        container.stop();
        assertTrue(a.isStopped());
        // c never started, so its stop() does nothing; the failed b runs its doStop().
        assertEquals(List.of("start a", "start b", "stop root", "stop b", "stop a"), events);
    }

    @Test
    void beansAreFoundByTypeAndIdentity() {
        Node container = new Node("root");
        RecordingComponent a = new RecordingComponent("a", events);
        assertFalse(container.addBean(null));
        assertTrue(container.addBean(a));
        assertFalse(container.addBean(a), "the same child twice");
        assertTrue(container.addBean("text"));

        assertSame(a, container.getBean(RecordingComponent.class));
        assertEquals(List.of(a), container.getBeans(LifeCycle.class));
        assertEquals(List.of("text"), container.getBeans(String.class));
        assertNull(container.getBean(Integer.class));
        assertTrue(container.contains(a));
        assertFalse(container.isManaged("text"), "a plain object is never managed");
    }

    /** Two children that are equal but distinct: each is its own bean. */
    private record Settings(String name) {
    }

    @Test
    void removeBeanRemovesThatVeryChild() {
        Node container = new Node("root");
        Settings first = new Settings("same");
        Settings second = new Settings("same");
        assertTrue(container.addBean(first));
        assertTrue(container.addBean(second));

        assertTrue(container.removeBean(second));
        List<Settings> left = container.getBeans(Settings.class);
        assertEquals(1, left.size());
        assertSame(first, left.get(0), "removeBean(second) removed the first, equal child");
        assertTrue(container.contains(first));
        assertFalse(container.contains(second));
    }

    @Test
    void dumpDrawsTheTree() throws Exception {
        Node root = new Node("root");
        Node mid = new Node("mid");
        Node inner = new Node("inner");
        RecordingComponent a = new RecordingComponent("a", events);
        RecordingComponent c = new RecordingComponent("c", events);
        RecordingComponent shared = new RecordingComponent("shared", events);
        root.addBean(a);
        root.addBean(mid);
        root.addBean(shared, false);
        mid.addBean(inner);
        mid.addBean("text");
        inner.addBean(c);
        root.start();

        String expected = """
            root{STARTED}
            +- a{STARTED}
            +- mid{STARTED}
            |  +- inner{STARTED}
            |  |  += c{STARTED}
            |  += (unmanaged) text
            += (unmanaged) shared{STOPPED}
            """.replace("\n", System.lineSeparator());
        assertEquals(expected, root.dump());
    }
}
