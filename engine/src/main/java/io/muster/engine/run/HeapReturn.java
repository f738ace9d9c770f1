package io.muster.engine.run;

import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Gives the operating system back, once, the heap that starting a live run took. Compiling the graph and the first
 * checks of ten thousand files grow the heap to several times what the run keeps afterwards, and the serial
 * collector the launcher chooses returns memory only after a full collection (as far as {@code -XX:MaxHeapFreeRatio}
 * allows; {@code -XX:-ShrinkHeapInSteps} in one go), which an idle run never triggers by itself: without this a
 * resident run of 10,000 files keeps about 280 MB where 150 MB serve it.
 */
final class HeapReturn {
    private final AtomicBoolean returned = new AtomicBoolean();

    /** The run converged: the first time, the garbage of starting it is collected and the heap shrinks. */
    void converged() {
        if (returned.compareAndSet(false, true)) System.gc();
    }
}
