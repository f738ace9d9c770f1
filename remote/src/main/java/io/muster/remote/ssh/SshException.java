package io.muster.remote.ssh;

/**
 * SSH failed for one host: unreachable, refused, a host key not trusted, the connection dropped. The message is one
 * line a user can act on (it names the host, and the flag or file that would change the outcome); no stack trace is shown.
 */
public class SshException extends Exception {
    private final boolean retriable;

    /** @param retriable whether trying again may help (a dropped or timed-out connection), unlike a refused key or login */
    public SshException(String message, boolean retriable, Throwable cause) {
        super(message, cause);
        this.retriable = retriable;
    }

    public SshException(String message, boolean retriable) {
        this(message, retriable, null);
    }

    public boolean retriable() {
        return retriable;
    }
}
