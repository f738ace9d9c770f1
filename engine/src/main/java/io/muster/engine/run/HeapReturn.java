package io.muster.engine.run;

import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Gives the operating system back, once, the heap that starting a live run took. Compiling the graph and the first
 * checks of ten thousand files grow the heap to several times what the run keeps afterwards, and the serial
 * collector the launcher chooses returns memory only after a full collection (as far as {@code -XX:MaxHeapFreeRatio}
 * allows; {@code -XX:-ShrinkHeapInSteps} in one go), which an idle run never triggers by itself: without this a
 * resident run of 10,000 files keeps about 280 MB where 150 MB serve it.
 *
 * <p>Once per process, not per run: a collection is of the whole heap, and a process running many live runs (the
 * fleet bench's simulated agents, one JVM for N hosts) would otherwise collect it in full N times.
 */
final class HeapReturn {
    private static final AtomicBoolean returned = new AtomicBoolean();

    private HeapReturn() {}

    /** A run converged: the first time in this process, the garbage of starting it is collected and the heap shrinks. */
    static void converged() {
        if (returned.compareAndSet(false, true)) System.gc();
    }
}
