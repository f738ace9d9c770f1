package io.muster.remote.ssh;

import com.jcraft.jsch.Channel;
import com.jcraft.jsch.ChannelExec;
import com.jcraft.jsch.ChannelSftp;
import com.jcraft.jsch.JSchException;
import com.jcraft.jsch.Session;
import com.jcraft.jsch.SftpException;
import com.jcraft.jsch.SftpProgressMonitor;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/** One JSch session: commands over exec channels, files over one SFTP channel, remote port forwards. */
final class JschConnection implements SshConnection {
    /** The shell's convention for a command killed by a signal: 128 + its number. */
    private static final Map<String, Integer> SIGNALS = Map.of("HUP", 1, "INT", 2, "QUIT", 3, "ABRT", 6, "KILL", 9,
            "USR1", 10, "SEGV", 11, "USR2", 12, "PIPE", 13, "TERM", 15);
    private static final int CLOSE_POLL_MILLIS = 5;

    private final Destination destination;
    private final String who;
    private final Session session;
    private final int channelTimeout;
    private ChannelSftp sftp;
    private final AtomicBoolean forwarded = new AtomicBoolean();
    private volatile boolean closed;

    JschConnection(Destination destination, String who, Session session, Duration timeout) {
        this.destination = destination;
        this.who = who;
        this.session = session;
        this.channelTimeout = (int) Math.min(Integer.MAX_VALUE, timeout.toMillis());
    }

    @Override
    public Destination destination() {
        return destination;
    }

    @Override
    public int exec(String command, Consumer<String> lines) throws SshException, InterruptedException {
        if (Thread.interrupted()) throw new InterruptedException();
        Consumer<String> oneAtATime = line -> {
            synchronized (lines) {
                lines.accept(line);
            }
        };
        ChannelExec channel = null;
        try {
            channel = open("exec", ChannelExec.class);
            channel.setCommand(command);
            // no stdin stream is given: JSch then never sends EOF, so the command's stdin stays open until it ends
            LineStream out = LineStream.start("ssh " + destination.name() + " stdout", channel.getInputStream(), oneAtATime);
            LineStream err = LineStream.start("ssh " + destination.name() + " stderr", channel.getExtInputStream(), oneAtATime);
            channel.connect(channelTimeout);
            out.join();
            err.join();
            awaitClosed(channel);
            return exitStatus(channel, command);
        } catch (JSchException | IOException e) {
            throw failure("running '" + command + "'", e, false);
        } finally {
            if (channel != null) channel.disconnect();
        }
    }

    /** A new channel; JSch answers null rather than fail when the session is going down. */
    private <C extends Channel> C open(String type, Class<C> kind) throws JSchException {
        Channel channel = session.openChannel(type);
        if (channel == null) throw new JSchException("the session is down");
        return kind.cast(channel);
    }

    /** JSch tells of the channel's close by a flag only; the exit status comes with it, after the output's end. */
    private void awaitClosed(ChannelExec channel) throws InterruptedException {
        while (!channel.isClosed() && session.isConnected()) Thread.sleep(CLOSE_POLL_MILLIS);
    }

    private int exitStatus(ChannelExec channel, String command) throws SshException {
        if (channel.getExitStatus() >= 0) return channel.getExitStatus();
        if (channel.getExitSignal() != null) return 128 + SIGNALS.getOrDefault(channel.getExitSignal(), 0);
        throw failure("running '" + command + "'", null, false);
    }

    @Override
    public synchronized void upload(Path local, String remotePath, int mode) throws SshException, InterruptedException {
        if (Thread.interrupted()) throw new InterruptedException();
        ChannelSftp channel = sftp();
        try (InputStream in = Files.newInputStream(local)) {
            channel.put(in, remotePath, new StopWhenInterrupted(), ChannelSftp.OVERWRITE);
            if (!Thread.currentThread().isInterrupted()) channel.chmod(mode, remotePath);
        } catch (IOException e) {
            throw new SshException("cannot read " + local + ": " + e.getMessage(), false, e);
        } catch (SftpException e) {
            resetSftp(channel);
            if (Thread.interrupted()) throw new InterruptedException("upload of " + local + " interrupted");
            throw failure("uploading " + local + " to " + remotePath, e, e.getCause() == null);
        }
        if (Thread.interrupted()) {
            resetSftp(channel);
            throw new InterruptedException("upload of " + local + " interrupted");
        }
    }

    /** A put stopped half-way leaves the channel in no known state: the next upload opens a new one. */
    private void resetSftp(ChannelSftp channel) {
        channel.disconnect();
        sftp = null;
    }

    private ChannelSftp sftp() throws SshException {
        if (sftp != null && sftp.isConnected()) return sftp;
        try {
            ChannelSftp channel = open("sftp", ChannelSftp.class);
            channel.connect(channelTimeout);
            sftp = channel;
            return channel;
        } catch (JSchException e) {
            throw failure("opening SFTP", e, false);
        }
    }

    /** Stops a put between two writes once the uploading thread is interrupted. */
    private static final class StopWhenInterrupted implements SftpProgressMonitor {
        @Override
        public void init(int op, String src, String dest, long max) {
        }

        @Override
        public boolean count(long count) {
            return !Thread.currentThread().isInterrupted();
        }

        @Override
        public void end() {
        }
    }

    /**
     * JSch waits for the server's answer to a forward by sleeping, and its session thread wakes it with an interrupt
     * that can arrive after the call returned (then the next wait of the caller fails), while the sleep swallows an
     * interrupt of the caller. So the request runs on a thread of its own, which the late interrupt can only hit
     * once it has ended, and the caller waits on it interruptibly.
     *
     * <p>JSch registers a forward whose port the server chose under port 0, so a session holds one such forward.
     */
    @Override
    public int forwardRemotePort(String localHost, int localPort) throws SshException, InterruptedException {
        if (forwarded.getAndSet(true)) {
            throw new IllegalStateException("a connection forwards one remote port at most (JSch keeps one server-chosen port per session)");
        }
        FutureTask<Integer> request = new FutureTask<>(() -> session.setPortForwardingR("127.0.0.1:0:" + localHost + ":" + localPort));
        Thread.ofVirtual().name("ssh -R " + destination.name()).start(request);
        try {
            return request.get();
        } catch (InterruptedException e) {
            Thread.ofVirtual().name("ssh -R cancel " + destination.name()).start(() -> cancel(request));
            throw e;
        } catch (ExecutionException e) {
            boolean refused = String.valueOf(e.getCause().getMessage()).startsWith("remote port forwarding failed");
            throw failure("forwarding a port to " + localHost + ":" + localPort, e.getCause(), refused);
        }
    }

    private void cancel(FutureTask<Integer> request) {
        try {
            session.delPortForwardingR("127.0.0.1", request.get());
        } catch (InterruptedException | ExecutionException | JSchException e) {
            // no forward was opened, or the session is gone with it
        }
    }

    /**
     * A failure is retriable unless the server answered it (an SFTP status, a refused forward): only then is the
     * connection known to be up. JSch ends a dropped session's channels before it marks the session down, so the
     * session's state cannot tell a drop at that moment.
     */
    private SshException failure(String what, Throwable cause, boolean answeredByServer) {
        if (closed) return new SshException(who + ": " + what + ": the connection was closed", false, cause);
        if (!answeredByServer) return new SshException(who + ": the connection dropped while " + what, true, cause);
        return new SshException(who + ": " + what + " failed: " + cause.getMessage(), false, cause);
    }

    @Override
    public void close() {
        closed = true;
        try {
            session.disconnect();
        } catch (RuntimeException e) {
            // closing never fails: what is left of the session is gone with its socket
        }
    }
}
