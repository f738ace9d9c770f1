package io.muster.engine.resource.service;

import java.nio.file.Files;
import java.nio.file.Path;

/** Which {@link ServiceManager} drives a service: the one asked for, else systemd when the host booted with it. */
final class Managers {
    /** What {@code sd_booted(3)} checks: systemd makes it early at boot, nothing else does. */
    static final Path SYSTEMD_RUNTIME = Path.of("/run/systemd/system");

    enum Provider { SYSTEMD, INIT }

    private Managers() {}

    /** {@code requested}, or (null) the one this host runs: systemd when {@code systemdRuntime} is a directory. */
    static Provider choose(Provider requested, Path systemdRuntime) {
        if (requested != null) return requested;
        return Files.isDirectory(systemdRuntime) ? Provider.SYSTEMD : Provider.INIT;
    }

    static ServiceManager of(Provider provider, String name, Path pidfile) {
        return switch (provider) {
            case SYSTEMD -> new Systemd(Systemd.unit(name));
            case INIT -> new InitScript(name, pidfile);
        };
    }
}
