package io.muster.remote.ssh;

import java.nio.file.Path;
import java.util.function.Consumer;

/**
 * One open SSH connection to one host. Any method throws {@link SshException} when the connection drops (retriable),
 * and {@link InterruptedException} when the calling thread is interrupted, after closing what it had opened.
 */
public interface SshConnection extends AutoCloseable {
    /** The host as the user named it. */
    Destination destination();

    /**
     * Runs {@code command} through the remote's shell and returns its exit status. Each line of its stdout and stderr
     * goes to {@code lines} as it comes. The command's stdin stays open until it ends, so a command can tell from
     * end-of-file on stdin that muster (or the connection) is gone.
     */
    int exec(String command, Consumer<String> lines) throws SshException, InterruptedException;

    /** Copies a local file to {@code remotePath} (the parent must exist) with permissions {@code mode}; not atomic by itself. */
    void upload(Path local, String remotePath, int mode) throws SshException, InterruptedException;

    /**
     * Opens a port on the remote's loopback (127.0.0.1) whose connections are forwarded to {@code localHost:localPort}
     * here, and returns the port the remote chose. It is closed with the connection. One per connection (JSch keeps
     * a single server-chosen port per session): a second call is an IllegalStateException.
     */
    int forwardRemotePort(String localHost, int localPort) throws SshException, InterruptedException;

    /** Closes the connection and its forwards; whatever it started on the remote sees end-of-file on stdin. Never throws. */
    @Override
    void close();
}
