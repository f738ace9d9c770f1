package io.muster.engine.format.ccm;

import io.muster.engine.manifest.YNode;
import java.util.ArrayList;
import java.util.List;

/**
 * CCM's exec {@code timeout}, which does not stop the command: CCM's runner cancels only its own wait, so the
 * command runs to its end; if it then exits 0 after the deadline the exec fails with {@code context deadline
 * exceeded}, and any other exit status is judged by {@code returns} as usual. muster's exec would kill the command
 * at its timeout, so a CCM exec gets none and its command (and guards) run under a small {@code /bin/sh} that
 * times them and fails (status {@value #EXPIRED}) in that one case.
 */
final class Deadline {
    /** The exit status, as coreutils' {@code timeout} uses it, for a command that succeeded too late. */
    static final int EXPIRED = 124;
    private static final String PROGRAM = "ccm-timeout";

    private Deadline() {}

    /**
     * {@code command} (its words, or a string: a shell command when {@code shell}, else words split when it runs)
     * run under the deadline of {@code millis}.
     */
    static YNode wrap(YNode command, long millis, boolean shell) {
        String script = "s=$(date +%s%N); \"$@\"; r=$?; e=$(date +%s%N); if [ $r -eq 0 ] && [ $(( (e - s) / 1000000 )) -ge " + millis
                + " ]; then echo \"context deadline exceeded\" >&2; exit " + EXPIRED + "; fi; exit $r";
        List<YNode> words = new ArrayList<>(List.of(word("/bin/sh", command), word("-c", command), word(script, command), word(PROGRAM, command)));
        switch (command) {
            case YNode.Seq seq -> words.addAll(seq.items());
            case YNode.Scalar scalar when shell -> words.addAll(List.of(word("/bin/sh", command), word("-c", command), scalar));
            default -> {
                // a posix command rendered when it runs is split into words then: the wrapper joins it as a string
                return Nodes.scalar("/bin/sh -c '" + script + "' " + PROGRAM + " " + command.plain(), command.mark());
            }
        }
        return Nodes.seq(words, command.mark());
    }

    private static YNode word(String text, YNode at) {
        return Nodes.scalar(text, at.mark());
    }
}
