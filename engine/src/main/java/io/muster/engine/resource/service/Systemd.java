package io.muster.engine.resource.service;

import io.muster.engine.process.ProcessGroups;
import io.muster.engine.process.ProcessRunner;
import io.muster.engine.process.SystemTool;
import io.muster.engine.resource.Foreseeable;
import io.muster.engine.resource.Watcher;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

/**
 * A systemd unit through {@code systemctl}: running is {@code is-active}, enabled is {@code is-enabled}'s exit code
 * (static and generated units count as enabled: nothing can disable them). Watched through the journal lines
 * systemd logs about the unit (see the package's documentation for why not D-Bus signals).
 */
record Systemd(String unit) implements ServiceManager {

    /** The unit a service name means: {@code nginx} is {@code nginx.service}; a name with a type ({@code x.socket}) is itself. */
    static String unit(String name) {
        return name.matches(".*\\.(service|socket|timer|target|mount|path)") ? name : name + ".service";
    }

    @Override
    public boolean running() throws Exception {
        return SystemTool.run(List.of("systemctl", "is-active", "--quiet", unit)).exitCode() == 0;
    }

    @Override
    public void perform(Action action) throws Exception {
        SystemTool.output(List.of("systemctl", action.verb(), unit));
    }

    @Override
    public boolean enabled() throws Exception {
        return SystemTool.run(List.of("systemctl", "is-enabled", "--quiet", unit)).exitCode() == 0;
    }

    @Override
    public void enable(boolean atBoot) throws Exception {
        SystemTool.output(List.of("systemctl", atBoot ? "enable" : "disable", unit));
    }

    /** Nothing foreseen: a unit may come from any of systemd's directories, or be generated. */
    @Override
    public String failureToCome(Foreseeable.Upstream upstream) {
        return null;
    }

    /** Each line systemd (pid 1) logs about the unit is a change; the follow ending is a failure of the watch. */
    @Override
    public void watch(Watcher watcher) throws Exception {
        List<String> argv = List.of("journalctl", "--follow", "--lines=0", "--output=cat", "_PID=1", "UNIT=" + unit);
        Process journal = ProcessRunner.in(null, Duration.ZERO).start(argv, SystemTool.quoted(argv), ProcessBuilder.Redirect.DISCARD);
        Thread reader = Thread.ofVirtual().start(() -> {
            try (BufferedReader lines = new BufferedReader(new InputStreamReader(journal.getInputStream(), StandardCharsets.UTF_8))) {
                while (lines.readLine() != null) watcher.changed();
            } catch (IOException e) {
                // journalctl is gone: waitFor below says so
            }
        });
        try {
            watcher.ready();
            int exit = journal.waitFor();
            throw new IOException(SystemTool.quoted(argv) + " ended (exit code " + exit + "): the unit is no longer watched");
        } finally {
            ProcessGroups.kill(journal);
            reader.join();
        }
    }
}
