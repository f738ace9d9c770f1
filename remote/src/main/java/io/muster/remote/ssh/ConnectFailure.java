package io.muster.remote.ssh;

import com.jcraft.jsch.JSchException;
import java.io.IOException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.Locale;

/**
 * Why a connection could not be opened, as one line naming the host: unreachable (retriable, but for a name that
 * does not resolve), a host key not trusted, a login refused (neither retriable: trying again cannot help).
 */
final class ConnectFailure {
    private ConnectFailure() {}

    static SshException of(Login login, JSchException e, HostKeyTrust trust, LoginKeys keys, boolean interactive, Duration timeout) {
        if (trust.refusal() != null) return new SshException(login + ": " + trust.refusal(), false, e);
        String message = String.valueOf(e.getMessage());
        if (message.startsWith("Auth fail") || message.startsWith("Auth cancel") || message.startsWith("USERAUTH fail")) {
            return new SshException(login + ": login refused; tried " + keys.tried()
                    + (interactive ? ", a password" : "") + "; give the key with -i FILE or load it into ssh-agent"
                    + (interactive ? "" : ", or let muster ask for a password with --allow-interactive"), false, e);
        }
        for (Throwable cause = e; cause != null; cause = cause.getCause()) {
            switch (cause) {
                case UnknownHostException u -> {
                    return new SshException(login + ": unknown host name '" + login.host() + "'", false, e);
                }
                case ConnectException c -> {
                    String why = String.valueOf(c.getMessage()).toLowerCase(Locale.ROOT);
                    return new SshException(login + ": " + (why.contains("refused") ? "connection refused (no sshd listening on port " + login.port() + ")" : why), true, e);
                }
                case NoRouteToHostException n -> {
                    return new SshException(login + ": no route to host", true, e);
                }
                case SocketTimeoutException t -> {
                    return new SshException(login + ": no answer within " + seconds(timeout), true, e);
                }
                case IOException io -> {
                    return new SshException(login + ": the connection broke during the SSH handshake (" + io.getMessage() + ")", true, e);
                }
                default -> {
                    // look further down the chain
                }
            }
        }
        if (message.startsWith("timeout")) return new SshException(login + ": no answer within " + seconds(timeout), true, e);
        if (message.contains("closed by foreign host")) {
            return new SshException(login + ": the host closed the connection before the SSH handshake ended"
                    + " (sshd drops connections beyond its MaxStartups when many open at once)", true, e);
        }
        return new SshException(login + ": SSH handshake failed: " + message, false, e);
    }

    private static String seconds(Duration timeout) {
        return timeout.toMillis() % 1000 == 0 ? timeout.toSeconds() + " s" : timeout.toMillis() + " ms";
    }
}
