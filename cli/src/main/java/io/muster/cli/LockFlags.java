package io.muster.cli;

import io.muster.engine.run.StateLock;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code --wait-lock}, and taking the {@link StateLock} for a run that changes things ({@code apply},
 * {@code run}): at once, or as soon as the run holding it ends, within that many seconds.
 */
final class LockFlags {
    /** Another run holds the lock (EX_TEMPFAIL: try again later). */
    static final int HELD = 75;

    private static final long POLL_MILLIS = 50;

    @Spec(Spec.Target.MIXEE)
    CommandSpec spec;

    double waitSeconds;

    @Option(names = "--wait-lock", paramLabel = "S",
            description = "When another run holds the state lock, wait up to S seconds for it (default: ${DEFAULT-VALUE}, do not wait). "
                    + "A --noop run takes no lock.",
            defaultValue = "0")
    void waitSeconds(double seconds) {
        if (!(seconds >= 0) || Double.isInfinite(seconds)) {
            throw new ParameterException(spec.commandLine(), "--wait-lock must be 0 or more seconds, got " + seconds);
        }
        waitSeconds = seconds;
    }

    /** Why a run did not start: one line for the user, and the exit code. */
    static final class NotTaken extends Exception {
        final int exitCode;

        NotTaken(String message, int exitCode) {
            super(message);
            this.exitCode = exitCode;
        }
    }

    /** Takes the lock of {@code prefix}, waiting per {@code --wait-lock}; a signal ends the wait. */
    StateLock take(Path prefix, Signals signals, PrintWriter err) throws NotTaken, InterruptedException {
        long deadline = System.nanoTime() + (long) Math.min(waitSeconds * 1e9, Long.MAX_VALUE / 2); // a century is forever
        boolean told = false;
        while (true) {
            try {
                return StateLock.tryAcquire(prefix);
            } catch (StateLock.HeldException held) {
                if (signals.caught() != null) {
                    throw new NotTaken("stopped (" + signals.caught() + ") while waiting: " + held.getMessage(), signals.exitCode());
                }
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    throw new NotTaken(waitSeconds == 0 ? held.getMessage() + "; --wait-lock SECONDS waits for it"
                            : "waited " + seconds() + "s: " + held.getMessage(), HELD);
                }
                if (!told) err.println("muster: " + held.getMessage() + "; waiting up to " + seconds() + "s");
                told = true;
                TimeUnit.NANOSECONDS.sleep(Math.min(left, TimeUnit.MILLISECONDS.toNanos(POLL_MILLIS)));
            } catch (IOException e) {
                throw new NotTaken("cannot lock the state prefix " + prefix + ": " + problem(e), 1);
            }
        }
    }

    /** What went wrong, in words: a file system exception's message is often nothing but the path. */
    private static String problem(IOException e) {
        if (!(e instanceof FileSystemException f)) return e.getMessage();
        String reason = e instanceof AccessDeniedException ? "permission denied"
                : e instanceof NoSuchFileException ? "no such file or directory"
                : f.getReason() != null ? f.getReason() : e.getClass().getSimpleName();
        return f.getFile() + ": " + reason;
    }

    private String seconds() {
        return waitSeconds == Math.rint(waitSeconds) ? Long.toString((long) waitSeconds) : Double.toString(waitSeconds);
    }
}
