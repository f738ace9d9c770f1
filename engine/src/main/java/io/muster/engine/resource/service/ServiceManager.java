package io.muster.engine.resource.service;

import io.muster.engine.resource.Foreseeable;
import io.muster.engine.resource.Watcher;
import java.util.Locale;

/** How one service is asked about and driven on this host: systemd's {@code systemctl}, or an init script. */
interface ServiceManager {

    /** What can be done to a service; its name in lower case is the verb both {@code systemctl} and init scripts take. */
    enum Action {
        START, STOP, RESTART, RELOAD;

        String verb() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    boolean running() throws Exception;

    void perform(Action action) throws Exception;

    /** Whether it starts at boot. */
    boolean enabled() throws Exception;

    /** Makes it start at boot, or not. */
    void enable(boolean atBoot) throws Exception;

    /** Why an apply would fail for want of what drives the service (a missing init script), or null. */
    String failureToCome(Foreseeable.Upstream upstream);

    /** Blocks until interrupted, calling {@link Watcher#changed()} when the service may have started or stopped. */
    void watch(Watcher watcher) throws Exception;
}
