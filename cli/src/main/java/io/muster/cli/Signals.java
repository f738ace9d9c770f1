package io.muster.cli;

import sun.misc.Signal;
import sun.misc.SignalHandler;

/**
 * SIGINT and SIGTERM for a long run: the first asks it to stop cleanly (watches end, applies under way
 * finish), a second exits at once. Shutdown hooks cannot tell a second signal from the first, hence
 * {@code sun.misc.Signal}.
 */
final class Signals implements AutoCloseable {
    private static final String[] NAMES = {"INT", "TERM"};

    private final SignalHandler[] previous = new SignalHandler[NAMES.length];
    private volatile boolean stopping;

    Signals(Runnable stop) {
        for (int i = 0; i < NAMES.length; i++) {
            int exitCode = 128 + new Signal(NAMES[i]).getNumber();
            previous[i] = Signal.handle(new Signal(NAMES[i]), signal -> {
                if (stopping) { // at once: no command of a resource is left running either
                    ProcessHandle.current().descendants().forEach(ProcessHandle::destroyForcibly);
                    Runtime.getRuntime().halt(exitCode);
                }
                stopping = true;
                System.err.println("muster: stopping (" + "SIG" + signal.getName() + "); send it again to exit at once");
                stop.run();
            });
        }
    }

    boolean stopping() {
        return stopping;
    }

    @Override
    public void close() {
        for (int i = 0; i < NAMES.length; i++) Signal.handle(new Signal(NAMES[i]), previous[i]);
    }
}
