package io.muster.engine.util.fs;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SegmentAllocator;
import java.util.concurrent.ConcurrentLinkedDeque;

/**
 * Native memory for the arguments of a system call or a few (a name, a stat buffer, errno, a read buffer), taken
 * from a pool and given back on {@link #close}. A confined arena per call cost a malloc, a zeroing and a free per
 * argument and a few hundred bytes of Java objects, and checking 10,000 files makes 50,000 calls. Memory handed out
 * is not zeroed: every caller reads only what the call wrote. What is taken is its taker's alone until it closes
 * it, and unused after; the pool holds as many as were ever taken at once (a thread in a call each).
 */
final class Scratch implements SegmentAllocator, AutoCloseable {
    /** The largest read chunk ({@link OpenFile}) and room for names and results beside it. */
    private static final long SIZE = (64 << 10) + (8 << 10);
    private static final ConcurrentLinkedDeque<Scratch> FREE = new ConcurrentLinkedDeque<>();

    private final MemorySegment memory = Arena.global().allocate(SIZE, 16);
    private long used;
    /** For what does not fit (a path of thousands of bytes): made when needed, freed on close. */
    private Arena overflow;

    private Scratch() {}

    static Scratch take() {
        Scratch scratch = FREE.pollFirst();
        return scratch != null ? scratch : new Scratch();
    }

    @Override
    public MemorySegment allocate(long byteSize, long byteAlignment) {
        long start = (used + byteAlignment - 1) & -byteAlignment;
        if (byteAlignment > 16 || start + byteSize > SIZE) {
            if (overflow == null) overflow = Arena.ofConfined();
            return overflow.allocate(byteSize, byteAlignment);
        }
        used = start + byteSize;
        return memory.asSlice(start, byteSize);
    }

    @Override
    public void close() {
        used = 0;
        if (overflow != null) {
            overflow.close();
            overflow = null;
        }
        FREE.offerFirst(this); // the one used last is warm in the cache
    }
}
