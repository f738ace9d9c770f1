package io.muster.engine.world;

/** The in-memory World keeps every World's promises (and calls each listener exactly once per change). */
class MemoryWorldTest extends WorldContract {
    @Override
    protected World newWorld() {
        return new MemoryWorld("web1");
    }
}
