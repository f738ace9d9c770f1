package io.muster.engine.run;

/**
 * Which resources are being checked or applied right now, for a progress display: told from the threads that run
 * them, as each attempt begins and ends (an aggregate's outcome, which runs nothing, is not told).
 */
public interface Activity {
    Activity NONE = new Activity() {
        @Override
        public void started(String id) {}

        @Override
        public void finished(String id) {}
    };

    void started(String id);

    void finished(String id);
}
