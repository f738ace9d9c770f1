package io.muster.remote.ssh;

import com.jcraft.jsch.JSch;
import com.jcraft.jsch.JSchException;
import com.jcraft.jsch.Session;
import java.nio.file.Path;
import java.time.Duration;

/**
 * Opens SSH connections with JSch: ~/.ssh/config applied ({@link SshConfigFile}), the host's key checked against
 * known_hosts ({@link HostKeyTrust}), logged in with keys ({@link LoginKeys}) and, only when allowed, a password
 * asked on the terminal ({@link ConsolePrompter}). A failure is one line ({@link ConnectFailure}).
 */
public final class JschConnector implements SshConnector {
    /**
     * A dead connection is noticed within 15 s: JSch sends a keepalive after each 5 s of silence and gives up at the
     * silence after the last one it may send, so after (2 + 1) × 5 s.
     */
    private static final int KEEPALIVE_MILLIS = 5_000;
    private static final int KEEPALIVE_COUNT = 2;

    private final SshSettings settings;
    private final LocalUser me;

    public JschConnector(SshSettings settings) {
        this(settings, LocalUser.current());
    }

    /** With another local user than this process's: tests give a home without keys and their own ssh-agent. */
    public JschConnector(SshSettings settings, LocalUser me) {
        this.settings = settings;
        this.me = me;
    }

    @Override
    public SshConnection connect(Destination destination) throws SshException, InterruptedException {
        Login login = SshConfigFile.resolve(settings.sshConfig(), destination, me);
        LoginKeys keys = LoginKeys.gather(settings, login, me, settings.allowInteractive());
        Path knownHosts = settings.knownHosts() != null ? settings.knownHosts() : me.dotSsh().resolve("known_hosts");
        HostKeyTrust trust = new HostKeyTrust(knownHosts, settings.acceptNewHostKeys());
        Duration timeout = settings.connectTimeout();
        Session session;
        try {
            session = new JSch().getSession(login.user(), login.host(), login.port());
            session.setIdentityRepository(keys);
            session.setHostKeyRepository(trust);
            session.setConfig("StrictHostKeyChecking", "yes");
            session.setConfig("PreferredAuthentications", settings.allowInteractive() ? "publickey,keyboard-interactive,password" : "publickey");
            if (settings.allowInteractive()) session.setUserInfo(new ConsolePrompter(login.toString()));
            session.setServerAliveInterval(KEEPALIVE_MILLIS);
            session.setServerAliveCountMax(KEEPALIVE_COUNT);
            session.setDaemonThread(true);
        } catch (JSchException e) {
            throw new SshException(login + ": " + e.getMessage(), false, e);
        }
        try {
            session.connect((int) Math.min(Integer.MAX_VALUE, timeout.toMillis()));
        } catch (JSchException e) {
            if (Thread.interrupted()) throw new InterruptedException("connecting to " + login + " was interrupted");
            throw ConnectFailure.of(login, e, trust, keys, settings.allowInteractive(), timeout);
        }
        if (Thread.interrupted()) {
            session.disconnect();
            throw new InterruptedException("connecting to " + login + " was interrupted");
        }
        return new JschConnection(destination, login.toString(), session, timeout);
    }
}
