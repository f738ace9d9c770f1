package io.muster.engine.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/**
 * A real service for the service kind's tests: a small daemon (a shell loop that writes its pid file, logs
 * {@code start} and, on SIGHUP, {@code reload}) and its LSB init script in {@code /etc/init.d} under a unique name.
 * {@link #close()} stops it and removes the script, its runlevel links and its pid file, whatever the test did.
 */
public final class InitScriptService implements AutoCloseable {
    private final String name;
    private final Path log;

    private InitScriptService(String name, Path log) {
        this.name = name;
        this.log = log;
    }

    /** Writes the daemon and its log into {@code dir}, the init script into {@code /etc/init.d}. */
    public static InitScriptService install(Path dir) throws IOException {
        String name = "muster-test-" + HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextInt());
        Path daemon = dir.resolve(name + ".daemon");
        Path log = dir.resolve(name + ".log");
        Path pidfile = Path.of("/run", name + ".pid");
        executable(daemon, """
                #!/bin/sh
                echo $$ > PIDFILE
                echo start >> LOG
                trap 'echo reload >> LOG' HUP
                trap 'kill $! 2>/dev/null; rm -f PIDFILE; exit 0' TERM
                while :; do sleep 60 & wait $!; done
                """.replace("PIDFILE", pidfile.toString()).replace("LOG", log.toString()));
        executable(Path.of("/etc/init.d", name), """
                #!/bin/sh
                ### BEGIN INIT INFO
                # Provides:          NAME
                # Required-Start:
                # Required-Stop:
                # Default-Start:     2 3 4 5
                # Default-Stop:      0 1 6
                # Short-Description: a daemon of muster's tests
                ### END INIT INFO
                PIDFILE=PIDPATH
                running() { [ -f "$PIDFILE" ] && kill -0 "$(cat "$PIDFILE")" 2>/dev/null; }
                wait_until() { i=0; while ! eval "$1"; do i=$((i+1)); [ $i -gt 100 ] && exit 1; sleep 0.05; done; }
                case "$1" in
                  start)   running && exit 0; setsid DAEMON </dev/null >/dev/null 2>&1 & wait_until running ;;
                  stop)    running || exit 0; kill "$(cat "$PIDFILE")"; wait_until '! running' ;;
                  restart) "$0" stop && "$0" start ;;
                  reload)  running && kill -HUP "$(cat "$PIDFILE")" ;;
                  status)  running && exit 0; [ -f "$PIDFILE" ] && exit 1; exit 3 ;;
                  *)       echo "usage: $0 start|stop|restart|reload|status" >&2; exit 3 ;;
                esac
                """.replace("NAME", name).replace("PIDPATH", pidfile.toString()).replace("DAEMON", daemon.toString()));
        return new InitScriptService(name, log);
    }

    public String name() {
        return name;
    }

    public Path pidfile() {
        return Path.of("/run", name + ".pid");
    }

    /** The daemon's pid, or -1 when it is not running. */
    public long pid() {
        try {
            long pid = Long.parseLong(Files.readString(pidfile()).strip());
            return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false) ? pid : -1;
        } catch (IOException | NumberFormatException e) {
            return -1;
        }
    }

    /** What the daemon logged, one line per start and per reload. */
    public List<String> log() throws IOException {
        return Files.exists(log) ? Files.readAllLines(log) : List.of();
    }

    /** Kills the daemon with SIGKILL, as a crash would: its pid file stays behind. */
    public void crash() {
        ProcessHandle.of(pid()).ifPresent(daemon -> {
            daemon.descendants().forEach(ProcessHandle::destroyForcibly);
            daemon.destroyForcibly();
        });
    }

    /** The start links ({@code S??NAME}) in {@code /etc/rc2.d}, where {@code update-rc.d} puts them. */
    public boolean startsAtBoot() throws IOException {
        try (var entries = Files.newDirectoryStream(Path.of("/etc/rc2.d"), "S[0-9][0-9]" + name)) {
            return entries.iterator().hasNext();
        }
    }

    @Override
    public void close() throws IOException, InterruptedException {
        crash();
        new ProcessBuilder("update-rc.d", "-f", name, "remove").redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).start().waitFor();
        Files.deleteIfExists(Path.of("/etc/init.d", name));
        Files.deleteIfExists(pidfile());
    }

    private static void executable(Path file, String text) throws IOException {
        Files.writeString(file, text);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
    }
}
