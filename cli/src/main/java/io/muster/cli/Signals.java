package io.muster.cli;

import io.muster.engine.process.ProcessGroups;
import sun.misc.Signal;
import sun.misc.SignalHandler;

/**
 * SIGINT and SIGTERM for a run: the first asks it to stop cleanly (nothing new starts, what runs
 * finishes), a second kills the commands still running and exits at once. Shutdown hooks cannot tell a
 * second signal from the first, hence {@code sun.misc.Signal}.
 */
final class Signals implements AutoCloseable {
    private static final String[] NAMES = {"INT", "TERM"};

    private final SignalHandler[] previous = new SignalHandler[NAMES.length];
    private volatile String caught;
    private volatile int exitCode;

    /** @param stop told the first signal's name ({@code SIGTERM}), on the signal's thread */
    Signals(java.util.function.Consumer<String> stop) {
        for (int i = 0; i < NAMES.length; i++) {
            int code = 128 + new Signal(NAMES[i]).getNumber();
            previous[i] = Signal.handle(new Signal(NAMES[i]), signal -> {
                if (caught != null) { // at once: no command of a resource is left running either
                    ProcessGroups.killAll(); // commands lead their own groups: halt runs no hook that would
                    ProcessHandle.current().descendants().forEach(ProcessHandle::destroyForcibly);
                    Runtime.getRuntime().halt(code);
                }
                exitCode = code;
                caught = "SIG" + signal.getName();
                System.err.println("muster: stopping (" + caught + "); send it again to exit at once");
                stop.accept(caught);
            });
        }
    }

    /** The first signal's name ({@code SIGTERM}), or null before one came. */
    String caught() {
        return caught;
    }

    /** 130 after SIGINT, 143 after SIGTERM; 0 before a signal came. */
    int exitCode() {
        return exitCode;
    }

    @Override
    public void close() {
        for (int i = 0; i < NAMES.length; i++) Signal.handle(new Signal(NAMES[i]), previous[i]);
    }
}
