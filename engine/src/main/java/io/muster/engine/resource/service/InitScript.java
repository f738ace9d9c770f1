package io.muster.engine.resource.service;

import io.muster.engine.process.ProcessRunner;
import io.muster.engine.process.SystemTool;
import io.muster.engine.resource.Foreseeable;
import io.muster.engine.resource.Watcher;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * A service run by its LSB init script, {@code /etc/init.d/NAME}: {@code status} answers by its exit code (0
 * running; 1, 2 and 3 not running, with or without a stale pid or lock file; anything else is an error), the
 * other actions by the script's own verbs. Enabled means a start link ({@code S??NAME}) in one of the multi-user
 * runlevels' directories, {@code /etc/rc2.d} to {@code /etc/rc5.d}; {@code update-rc.d} makes and switches them.
 */
record InitScript(String name, Path pidfile) implements ServiceManager {
    static final Path INIT_D = Path.of("/etc/init.d");
    private static final Path ETC = Path.of("/etc");
    private static final List<String> MULTI_USER = List.of("2", "3", "4", "5");

    private Path script() {
        return INIT_D.resolve(name);
    }

    @Override
    public boolean running() throws Exception {
        if (!Files.exists(script())) return false; // not installed yet (a package before it may bring it): its start says so
        List<String> argv = List.of(script().toString(), "status");
        ProcessRunner.Outcome outcome = SystemTool.run(argv);
        return switch (outcome.exitCode()) {
            case 0 -> true;
            case 1, 2, 3 -> false;
            default -> throw SystemTool.failure(SystemTool.quoted(argv) + " (LSB: 0 running, 3 stopped)", outcome);
        };
    }

    @Override
    public void perform(Action action) throws Exception {
        SystemTool.output(List.of(script().toString(), action.verb()));
    }

    @Override
    public boolean enabled() throws IOException {
        for (String level : MULTI_USER) {
            if (hasLink(level, "S")) return true;
        }
        return false;
    }

    /**
     * {@code update-rc.d}: {@code defaults} when there are no links yet (a script never enabled), else {@code enable}
     * or {@code disable}, which switch them between start and kill links.
     */
    @Override
    public void enable(boolean atBoot) throws Exception {
        String action = !atBoot ? "disable" : hasLinks() ? "enable" : "defaults";
        SystemTool.output(List.of("update-rc.d", name, action));
    }

    /** A script that is missing, unless a resource before the service may make it (a file there, a package). */
    @Override
    public String failureToCome(Foreseeable.Upstream upstream) {
        if (Files.exists(script()) || upstream.runsCommands() || upstream.mayMake(script())) return null;
        return "its init script " + script() + " does not exist, and nothing before it in the manifest makes it";
    }

    @Override
    public void watch(Watcher watcher) throws Exception {
        DaemonExit exit = new DaemonExit(watcher);
        try (AutoCloseable ignored = watcher.watchPath(pidfile, exit::pidfileChanged)) {
            exit.follow();
            watcher.ready();
            Watcher.awaitCancel();
        } finally {
            exit.stop();
        }
    }

    private boolean hasLinks() throws IOException {
        for (String level : List.of("S", "0", "1", "2", "3", "4", "5", "6")) {
            if (hasLink(level, "[SK]")) return true;
        }
        return false;
    }

    /** Whether {@code /etc/rcLEVEL.d} has a link of this service whose first letter matches {@code kind} ({@code S} starts, {@code K} kills). */
    private boolean hasLink(String level, String kind) throws IOException {
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(ETC.resolve("rc" + level + ".d"), kind + "[0-9][0-9]" + glob(name))) {
            return entries.iterator().hasNext();
        } catch (NoSuchFileException e) {
            return false;
        }
    }

    /** {@code name} as a glob that matches only itself. */
    private static String glob(String name) {
        return name.replaceAll("([\\\\*?\\[\\]{}])", "\\\\$1");
    }

    /**
     * Follows the daemon whose pid the pid file holds: its exit is a change. Each change of the pid file (a start
     * writes it, a stop removes it) is one too, and follows the new pid.
     */
    private final class DaemonExit {
        private final Watcher watcher;
        private CompletableFuture<?> exit = CompletableFuture.completedFuture(null);

        DaemonExit(Watcher watcher) {
            this.watcher = watcher;
        }

        void pidfileChanged() {
            watcher.changed();
            follow();
        }

        synchronized void follow() {
            exit.cancel(false);
            Optional<ProcessHandle> daemon = pid().flatMap(ProcessHandle::of);
            exit = daemon.<CompletableFuture<?>>map(p -> p.onExit().thenRun(watcher::changed)).orElse(CompletableFuture.completedFuture(null));
        }

        synchronized void stop() {
            exit.cancel(false);
        }

        private Optional<Long> pid() {
            try {
                String text = Files.readString(pidfile).strip();
                return text.matches("[0-9]{1,10}") ? Optional.of(Long.parseLong(text)) : Optional.empty();
            } catch (IOException e) {
                return Optional.empty(); // none yet, or gone: the watch on the file says when it comes
            }
        }
    }
}
