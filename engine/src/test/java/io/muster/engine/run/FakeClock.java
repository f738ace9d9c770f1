package io.muster.engine.run;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A {@link Clock} that stands still until a test {@link #advance}s it: a timed wait ends only when the test
 * moves time past it (or the waiter is signalled), so timing rules are tested without sleeping.
 */
final class FakeClock implements Clock {
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition moved = lock.newCondition();
    private volatile long now = 1_000_000_000L;
    /** The threads waiting on this clock now, for tests that must let a waiter get there first. */
    private final Set<Thread> waiting = ConcurrentHashMap.newKeySet();
    /** The conditions of timed waits under way, signalled when time moves so their loops look again. */
    private final Set<Waiter> timed = ConcurrentHashMap.newKeySet();

    /** The time each thread read last: a timed wait that begins after time moved past it returns at once. */
    private final ThreadLocal<Long> lastRead = new ThreadLocal<>();

    private record Waiter(Lock lock, Condition condition) {}

    @Override
    public long nanoTime() {
        long t = now;
        lastRead.set(t);
        return t;
    }

    /** Moves time on and wakes every wait on this clock, which then looks whether its time has come. */
    void advance(long amount, TimeUnit unit) {
        lock.lock();
        try {
            now += unit.toNanos(amount);
            moved.signalAll();
        } finally {
            lock.unlock();
        }
        for (Waiter w : timed) {
            w.lock().lock();
            try {
                w.condition().signalAll();
            } finally {
                w.lock().unlock();
            }
        }
    }

    /** How many threads wait on this clock now. */
    int waiters() {
        return waiting.size();
    }

    @Override
    public void sleep(long nanos) throws InterruptedException {
        long deadline = now + nanos;
        waiting.add(Thread.currentThread());
        lock.lock();
        try {
            while (now - deadline < 0) moved.await();
        } finally {
            lock.unlock();
            waiting.remove(Thread.currentThread());
        }
    }

    @Override
    public void awaitNanos(Lock lock, Condition condition, long nanos) throws InterruptedException {
        if (nanos <= 0) return;
        Waiter w = new Waiter(lock, condition);
        timed.add(w); // first: an advance after this signals it, and one before it is seen next
        waiting.add(Thread.currentThread());
        try {
            Long read = lastRead.get();
            if (read != null && read != now) return; // time moved since the caller looked: it looks again
            condition.await(); // the caller holds lock: advance signals it only once this thread waits
        } finally {
            waiting.remove(Thread.currentThread());
            timed.remove(w);
        }
    }
}
