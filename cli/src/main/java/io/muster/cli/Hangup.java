package io.muster.cli;

import sun.misc.Signal;
import sun.misc.SignalHandler;

/**
 * SIGHUP while a run runs: reload, as daemons do. The JVM's own handler exits with 129, which would end a
 * {@code muster run} with no summary when its terminal closes or a service manager asks it to reload.
 */
final class Hangup implements AutoCloseable {
    private static final Signal HUP = new Signal("HUP");

    private final SignalHandler previous;

    /** @param reload called on the signal's thread; it must only ask for the reload, not wait for it */
    Hangup(Runnable reload) {
        previous = Signal.handle(HUP, signal -> {
            System.err.println("muster: reloading the manifest (SIGHUP)");
            reload.run();
        });
    }

    @Override
    public void close() {
        Signal.handle(HUP, previous);
    }
}
