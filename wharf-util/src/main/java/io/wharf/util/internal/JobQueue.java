package io.wharf.util.internal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A lock-free, unbounded or bounded, multi-producer multi-consumer FIFO queue: the job queue
 * of the thread pool. Any thread may {@link #offer} and {@link #poll} at any time; neither
 * ever blocks or takes a lock, and waiting for an element is the caller's business (the pool
 * parks idle workers elsewhere). The queue holds references only and owns no buffers.
 *
 * <p>It is a linked queue in the manner of Michael and Scott: {@code head} is a sentinel node
 * that consumers swing forward, {@code tail} is the last node (or one that lags behind it by
 * a few links) that producers append to. Each node carries its position, one more than its
 * predecessor's, assigned before it is linked; so {@code tail.position - head.position} is the
 * number of elements, with no counter that producers and consumers would both write.
 *
 * <p><b>Layout.</b> Producers write {@code tail}, consumers write {@code head}. Were the two
 * fields on one cache line, every offer would invalidate the consumers' copy of the line and
 * every poll the producers' ("false sharing"). The fields are therefore declared in a chain of
 * superclasses with 128 bytes of padding before, between and after them: HotSpot lays a
 * superclass's fields out before its subclass's, so the hierarchy fixes the order (the
 * technique JCTools uses, {@code @Contended} not being available outside the JDK). The
 * padding is made of {@code byte} fields because HotSpot (JDK 15 and later) places a
 * subclass's field in any hole its superclasses left, for example the four bytes after a
 * twelve-byte object header; bytes fill those holes themselves, so that {@code head} and
 * {@code tail} cannot slide next to each other. 128 bytes rather than 64 also keeps the two
 * apart under the adjacent-line prefetcher. {@code JobQueueTest} checks the offsets.
 *
 * <p><b>Bound.</b> With a bound, a producer compares the position its node would take with
 * the head's position, read before linking. The head only moves forward, so the size at the
 * moment the node is linked is at most the size computed: the bound is never exceeded. Under
 * a race with consumers an offer may be refused for a queue that has just shrunk below the
 * bound; that refusal was true when the producer looked. Only a bounded queue makes producers
 * read {@code head}.
 *
 * <p><b>Garbage.</b> A consumer links the node it leaves behind to itself, so that a dead
 * node promoted to an old generation cannot keep the live ones after it reachable
 * ("nepotism"). The tail may briefly be such a dead node (consumers overtook an offer that
 * had not moved the tail yet); a producer that meets it moves the tail up to the head
 * before it goes on, so the tail never stays behind and an offer never walks the queue.
 *
 * @param <T> the type of the elements
 */
public final class JobQueue<T> extends JobQueueTailPadding<T> {

    private final int maxSize;

    /** An unbounded queue. */
    public JobQueue() {
        this(Integer.MAX_VALUE);
    }

    /**
     * @param maxSize the most elements the queue holds; {@link Integer#MAX_VALUE} for no bound
     * @throws IllegalArgumentException when {@code maxSize} is below 1
     */
    public JobQueue(int maxSize) {
        if (maxSize < 1) {
            throw new IllegalArgumentException("A job queue holds at least 1 element, not " + maxSize);
        }
        this.maxSize = maxSize;
        Node<T> sentinel = new Node<>(null, 0);
        initializeHead(sentinel);
        initializeTail(sentinel);
    }

    /** @return the most elements this queue holds ({@link Integer#MAX_VALUE} when unbounded) */
    public int maxSize() {
        return maxSize;
    }

    /**
     * Appends {@code element}.
     *
     * @return false when the queue is bounded and full; the element was then not added
     * @throws NullPointerException when {@code element} is null
     */
    public boolean offer(T element) {
        return append(element) != Appended.REFUSED;
    }

    /**
     * Appends {@code element} and tells whether an element not yet taken was ahead of it,
     * from the node it was linked behind: a node whose element is gone is the sentinel, so
     * the queue was empty. {@link Appended#BEHIND} is a promise: the consumer that takes the
     * element ahead takes it after this one was linked, so its next {@link #poll()} sees this
     * one (the element is cleared with a volatile write, read here with a volatile read after
     * the linking compare-and-set, so the two cannot both miss each other). A caller that
     * must wake a consumer whenever the queue stops being empty wakes one on
     * {@link Appended#FIRST} only. No read of the consumers' {@code head} is needed (unless bounded).
     *
     * @return what was done
     * @throws NullPointerException when {@code element} is null
     */
    public Appended append(T element) {
        if (element == null) {
            throw new NullPointerException("A job queue holds no null element");
        }
        Node<T> node = new Node<>(element, 0);
        boolean bounded = maxSize != Integer.MAX_VALUE;
        Node<T> last = tail();
        while (true) {
            Node<T> next = last.next();
            if (next == last) {
                // A consumer has left this node behind. If it is the tail, move the tail to the
                // head (forward: the head is past it), so that later offers do not meet it again.
                casTail(last, head());
                last = tail();
                continue;
            }
            if (next != null) {
                // The tail lags: help it forward and look again.
                casTail(last, next);
                last = next;
                continue;
            }
            long position = last.position + 1;
            if (bounded && position - head().position > maxSize) {
                return Appended.REFUSED;
            }
            node.position = position;
            if (last.casNext(null, node)) {
                casTail(last, node);
                return last.elementVolatile() == null ? Appended.FIRST : Appended.BEHIND;
            }
            last = tail();
        }
    }

    /** @return the oldest element, removed, or null when the queue is empty */
    public T poll() {
        while (true) {
            Node<T> first = head();
            Node<T> next = first.next();
            if (next == null) {
                return null;
            }
            if (next == first) {
                // Another consumer moved the head on and left this node behind.
                continue;
            }
            if (casHead(first, next)) {
                T element = next.element;
                next.clearElement();
                first.leave();
                return element;
            }
        }
    }

    /** @return the number of elements; exact when no thread offers or polls concurrently */
    public int size() {
        long size = appended() - taken();
        return (int) Math.max(0, Math.min(size, Integer.MAX_VALUE));
    }

    /**
     * @return how many elements were ever taken: the position of the last one taken. It only
     *     grows, and an element appended at position {@code p} has been taken once it reaches {@code p}.
     */
    public long taken() {
        return head().position;
    }

    /** @return how many elements were ever appended: the position of the last one; it only grows */
    public long appended() {
        // The tail may lag behind the last node by the links of offers still in progress, or be
        // a dead node that consumers overtook (then the head is further on).
        Node<T> last = tail();
        for (Node<T> next = last.next(); next != null && next != last; next = next.next()) {
            last = next;
        }
        return Math.max(last.position, taken());
    }

    /** @return whether the queue holds no element right now */
    public boolean isEmpty() {
        while (true) {
            Node<T> first = head();
            Node<T> next = first.next();
            if (next != first) {
                return next == null;
            }
        }
    }

    /** @return how many links the tail is behind the last node; -1 when it is a dead node (for tests) */
    int tailLag() {
        Node<T> last = tail();
        int lag = 0;
        for (Node<T> next = last.next(); next != null; next = next.next()) {
            if (next == last) {
                return -1;
            }
            last = next;
            lag++;
        }
        return lag;
    }

    @Override
    public String toString() {
        return "JobQueue@" + Integer.toHexString(hashCode()) + "{size=" + size() + (maxSize == Integer.MAX_VALUE ? "" : "/" + maxSize) + "}";
    }

    /** What {@link #append} did. */
    public enum Appended {
        /** The queue is bounded and full: the element was not added. */
        REFUSED,
        /** The element went in with no element ahead of it left to take: the queue was empty. */
        FIRST,
        /** The element went in behind one not yet taken, whose consumer will see this one. */
        BEHIND
    }

    /** A link of the queue: an element and its position, one more than its predecessor's. */
    static final class Node<T> {
        private static final VarHandle NEXT;
        private static final VarHandle ELEMENT;

        static {
            try {
                NEXT = MethodHandles.lookup().findVarHandle(Node.class, "next", Node.class);
                ELEMENT = MethodHandles.lookup().findVarHandle(Node.class, "element", Object.class);
            } catch (ReflectiveOperationException x) {
                throw new ExceptionInInitializerError(x);
            }
        }

        /** Written before the node is published, cleared (volatile) by the consumer that takes it. */
        T element;
        long position;
        private volatile Node<T> next;

        Node(T element, long position) {
            this.element = element;
            this.position = position;
        }

        /** A volatile read: see {@link JobQueue#append} on why the consumer side must not miss a link. */
        Node<T> next() {
            return next;
        }

        Object elementVolatile() {
            return ELEMENT.getVolatile(this);
        }

        void clearElement() {
            ELEMENT.setVolatile(this, null);
        }

        boolean casNext(Node<T> expected, Node<T> value) {
            return NEXT.compareAndSet(this, expected, value);
        }

        /** Links this dead node to itself; see the class comment on garbage. */
        void leave() {
            NEXT.setRelease(this, this);
        }
    }
}

/** Padding before {@code head}: keeps it off the line of whatever precedes the queue in memory. */
abstract class JobQueueHeadPadding {
    byte h00, h01, h02, h03, h04, h05, h06, h07, h08, h09, h10, h11, h12, h13, h14, h15;
    byte h16, h17, h18, h19, h20, h21, h22, h23, h24, h25, h26, h27, h28, h29, h30, h31;
    byte h32, h33, h34, h35, h36, h37, h38, h39, h40, h41, h42, h43, h44, h45, h46, h47;
    byte h48, h49, h50, h51, h52, h53, h54, h55, h56, h57, h58, h59, h60, h61, h62, h63;
    byte h64, h65, h66, h67, h68, h69, h70, h71, h72, h73, h74, h75, h76, h77, h78, h79;
    byte h80, h81, h82, h83, h84, h85, h86, h87, h88, h89, h90, h91, h92, h93, h94, h95;
    byte h96, h97, h98, h99, h100, h101, h102, h103, h104, h105, h106, h107, h108, h109, h110, h111;
    byte h112, h113, h114, h115, h116, h117, h118, h119, h120, h121, h122, h123, h124, h125, h126, h127;
}

/** The consumers' field. */
abstract class JobQueueHead<T> extends JobQueueHeadPadding {
    private static final VarHandle HEAD;

    static {
        try {
            HEAD = MethodHandles.lookup().findVarHandle(JobQueueHead.class, "head", JobQueue.Node.class);
        } catch (ReflectiveOperationException x) {
            throw new ExceptionInInitializerError(x);
        }
    }

    private volatile JobQueue.Node<T> head;

    final void initializeHead(JobQueue.Node<T> sentinel) {
        HEAD.setRelease(this, sentinel);
    }

    final JobQueue.Node<T> head() {
        return head;
    }

    final boolean casHead(JobQueue.Node<T> expected, JobQueue.Node<T> value) {
        return HEAD.compareAndSet(this, expected, value);
    }
}

/** Padding between {@code head} and {@code tail}: the two never share a cache line. */
abstract class JobQueueMiddlePadding<T> extends JobQueueHead<T> {
    byte m00, m01, m02, m03, m04, m05, m06, m07, m08, m09, m10, m11, m12, m13, m14, m15;
    byte m16, m17, m18, m19, m20, m21, m22, m23, m24, m25, m26, m27, m28, m29, m30, m31;
    byte m32, m33, m34, m35, m36, m37, m38, m39, m40, m41, m42, m43, m44, m45, m46, m47;
    byte m48, m49, m50, m51, m52, m53, m54, m55, m56, m57, m58, m59, m60, m61, m62, m63;
    byte m64, m65, m66, m67, m68, m69, m70, m71, m72, m73, m74, m75, m76, m77, m78, m79;
    byte m80, m81, m82, m83, m84, m85, m86, m87, m88, m89, m90, m91, m92, m93, m94, m95;
    byte m96, m97, m98, m99, m100, m101, m102, m103, m104, m105, m106, m107, m108, m109, m110, m111;
    byte m112, m113, m114, m115, m116, m117, m118, m119, m120, m121, m122, m123, m124, m125, m126, m127;
}

/** The producers' field. */
abstract class JobQueueTail<T> extends JobQueueMiddlePadding<T> {
    private static final VarHandle TAIL;

    static {
        try {
            TAIL = MethodHandles.lookup().findVarHandle(JobQueueTail.class, "tail", JobQueue.Node.class);
        } catch (ReflectiveOperationException x) {
            throw new ExceptionInInitializerError(x);
        }
    }

    private volatile JobQueue.Node<T> tail;

    final JobQueue.Node<T> tail() {
        return tail;
    }

    final boolean casTail(JobQueue.Node<T> expected, JobQueue.Node<T> value) {
        return TAIL.compareAndSet(this, expected, value);
    }

    final void initializeTail(JobQueue.Node<T> sentinel) {
        TAIL.setRelease(this, sentinel);
    }
}

/** Padding after {@code tail}: keeps it off the line of the queue's own final fields and of what follows. */
abstract class JobQueueTailPadding<T> extends JobQueueTail<T> {
    byte t00, t01, t02, t03, t04, t05, t06, t07, t08, t09, t10, t11, t12, t13, t14, t15;
    byte t16, t17, t18, t19, t20, t21, t22, t23, t24, t25, t26, t27, t28, t29, t30, t31;
    byte t32, t33, t34, t35, t36, t37, t38, t39, t40, t41, t42, t43, t44, t45, t46, t47;
    byte t48, t49, t50, t51, t52, t53, t54, t55, t56, t57, t58, t59, t60, t61, t62, t63;
    byte t64, t65, t66, t67, t68, t69, t70, t71, t72, t73, t74, t75, t76, t77, t78, t79;
    byte t80, t81, t82, t83, t84, t85, t86, t87, t88, t89, t90, t91, t92, t93, t94, t95;
    byte t96, t97, t98, t99, t100, t101, t102, t103, t104, t105, t106, t107, t108, t109, t110, t111;
    byte t112, t113, t114, t115, t116, t117, t118, t119, t120, t121, t122, t123, t124, t125, t126, t127;
}
