package io.muster.remote.ssh;

import java.nio.file.Path;

/**
 * Who runs muster on this machine, as SSH sees it: the login used when neither DEST nor ~/.ssh/config names one,
 * the home holding ~/.ssh (its default keys), and the ssh-agent to ask for keys.
 *
 * @param agentSocket the ssh-agent's socket ($SSH_AUTH_SOCK), or null when none is set
 */
public record LocalUser(String name, Path home, Path agentSocket) {
    /** The user of this JVM and the ssh-agent of its environment. */
    public static LocalUser current() {
        String socket = System.getenv("SSH_AUTH_SOCK");
        return new LocalUser(System.getProperty("user.name"), Path.of(System.getProperty("user.home")),
                socket == null || socket.isBlank() ? null : Path.of(socket));
    }

    Path dotSsh() {
        return home.resolve(".ssh");
    }
}
