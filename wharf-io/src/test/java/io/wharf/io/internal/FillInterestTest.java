package io.wharf.io.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.channels.ReadPendingException;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.atomic.AtomicInteger;

import io.wharf.util.Callback;
import io.wharf.util.InvocationType;

import org.junit.jupiter.api.Test;

class FillInterestTest {

    @Test
    void registerThenFillable() {
        AtomicInteger registrations = new AtomicInteger();
        FillInterest interest = new FillInterest(registrations::incrementAndGet);
        AtomicInteger calls = new AtomicInteger();
        interest.register(Callback.from(InvocationType.NON_BLOCKING, calls::incrementAndGet, x -> { }));
        assertTrue(interest.isInterested());
        assertEquals(1, registrations.get());
        assertEquals(InvocationType.NON_BLOCKING, interest.invocationType());
        assertThrows(ReadPendingException.class, () -> interest.register(Callback.NOOP));
        assertFalse(interest.tryRegister(Callback.NOOP));
        assertTrue(interest.fillable());
        assertEquals(1, calls.get());
        assertFalse(interest.fillable(), "a callback is completed once");
        assertFalse(interest.isInterested());
    }

    @Test
    void registrarFailureFailsTheCallback() {
        FillInterest interest = new FillInterest(() -> {
            throw new IOException("cannot watch");
        });
        Callback.Completable callback = new Callback.Completable();
        interest.register(callback);
        assertTrue(callback.isCompletedExceptionally());
        assertFalse(interest.isInterested());
    }

    @Test
    void fillableAndFailRaceCompletesOnce() throws Exception {
        for (int i = 0; i < 20_000; i++) {
            FillInterest interest = new FillInterest(() -> { });
            AtomicInteger completions = new AtomicInteger();
            interest.register(Callback.from(InvocationType.NON_BLOCKING, completions::incrementAndGet, x -> completions.incrementAndGet()));
            CyclicBarrier barrier = new CyclicBarrier(2);
            Thread failer = Thread.ofPlatform().start(() -> {
                await(barrier);
                interest.onFail(new IOException("closed"));
            });
            await(barrier);
            interest.fillable();
            failer.join();
            assertEquals(1, completions.get());
        }
    }

    private static void await(CyclicBarrier barrier) {
        try {
            barrier.await();
        } catch (Exception x) {
            throw new RuntimeException(x);
        }
    }
}
