package io.muster.remote.ssh;

/** Words for the remote's POSIX shell, which runs every command of {@link SshConnection#exec}. */
public final class Shell {
    private Shell() {}

    /** {@code word} as one shell word, whatever it holds: single-quoted, its single quotes written '\''. */
    public static String quote(String word) {
        return "'" + word.replace("'", "'\\''") + "'";
    }
}
