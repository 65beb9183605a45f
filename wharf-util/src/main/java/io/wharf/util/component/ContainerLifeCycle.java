package io.wharf.util.component;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A {@link LifeCycle} that holds children ("beans") and starts and stops the managed ones
 * with itself: children start in the order they were added, before this component's own
 * {@link #doStart()} work completes; they stop in reverse order.
 *
 * <p>A child added as unmanaged is only dumped, never started or stopped (for example a
 * shared thread pool owned by someone else). A child that is already running when added
 * is taken as unmanaged unless said otherwise.
 *
 * <p>When stopping, every managed child is stopped even if some fail; the first failure is
 * thrown with the others attached as suppressed exceptions.
 */
public class ContainerLifeCycle extends AbstractLifeCycle {

    private record Bean(Object object, boolean managed) {
    }

    private final List<Bean> beans = new CopyOnWriteArrayList<>();

    /**
     * Adds a child; managed when it is a {@link LifeCycle} that is not already running.
     * A child added while this container runs is started at once when managed.
     *
     * @return whether the child was added (false when it was already there)
     */
    public boolean addBean(Object child) {
        return addBean(child, child instanceof LifeCycle lifeCycle && !lifeCycle.isRunning());
    }

    /**
     * Adds a child, managed or not.
     *
     * @return whether the child was added (false when it was already there)
     */
    public boolean addBean(Object child, boolean managed) {
        if (child == null || contains(child)) {
            return false;
        }
        boolean lifeCycle = child instanceof LifeCycle;
        beans.add(new Bean(child, managed && lifeCycle));
        if (managed && lifeCycle && isRunning()) {
            LifeCycle.start(child);
        }
        return true;
    }

    /** @return whether {@code child} is one of this container's beans */
    public boolean contains(Object child) {
        for (Bean bean : beans) {
            if (bean.object == child) {
                return true;
            }
        }
        return false;
    }

    /**
     * Removes a child; a managed child that is running is stopped.
     *
     * @return whether it was a child
     */
    public boolean removeBean(Object child) {
        for (Bean bean : beans) {
            if (bean.object == child) {
                // By identity: Bean is a record, and List.remove(bean) would remove the first
                // bean whose child merely equals this one. False when a concurrent call won.
                if (!beans.removeIf(candidate -> candidate == bean)) {
                    return false;
                }
                if (bean.managed && isRunning()) {
                    LifeCycle.stop(child);
                }
                return true;
            }
        }
        return false;
    }

    /** @return the children that are instances of {@code type}, in the order added */
    public <T> List<T> getBeans(Class<T> type) {
        List<T> result = new ArrayList<>();
        for (Bean bean : beans) {
            if (type.isInstance(bean.object)) {
                result.add(type.cast(bean.object));
            }
        }
        return result;
    }

    /** @return the first child that is an instance of {@code type}, or null */
    public <T> T getBean(Class<T> type) {
        for (Bean bean : beans) {
            if (type.isInstance(bean.object)) {
                return type.cast(bean.object);
            }
        }
        return null;
    }

    /** @return whether {@code child} is a managed child */
    public boolean isManaged(Object child) {
        for (Bean bean : beans) {
            if (bean.object == child) {
                return bean.managed;
            }
        }
        return false;
    }

    /** Starts the managed children in order. Subclasses call {@code super.doStart()}. */
    @Override
    protected void doStart() throws Exception {
        for (Bean bean : beans) {
            if (bean.managed) {
                ((LifeCycle) bean.object).start();
            }
        }
    }

    /** Stops the managed children in reverse order. Subclasses call {@code super.doStop()}. */
    @Override
    protected void doStop() throws Exception {
        Throwable failure = null;
        List<Bean> reversed = new ArrayList<>(beans);
        for (int i = reversed.size() - 1; i >= 0; i--) {
            Bean bean = reversed.get(i);
            if (!bean.managed) {
                continue;
            }
            try {
                ((LifeCycle) bean.object).stop();
            } catch (Throwable x) {
                if (failure == null) {
                    failure = x;
                } else {
                    failure.addSuppressed(x);
                }
            }
        }
        if (failure instanceof Exception exception) {
            throw exception;
        }
        if (failure instanceof Error error) {
            throw error;
        }
    }

    @Override
    public void dump(Appendable out, String indent) throws IOException {
        List<Object> children = new ArrayList<>();
        for (Bean bean : beans) {
            children.add(bean.managed ? bean.object : new Unmanaged(bean.object));
        }
        Dumpable.dumpObjects(out, indent, this, children);
    }

    /** Marks an unmanaged child in a dump, still dumping its own children. */
    private record Unmanaged(Object object) implements Dumpable {
        @Override
        public void dump(Appendable out, String indent) throws IOException {
            if (object instanceof Dumpable dumpable) {
                out.append("(unmanaged) ");
                dumpable.dump(out, indent);
            } else {
                out.append("(unmanaged) ").append(String.valueOf(object)).append(System.lineSeparator());
            }
        }
    }
}
