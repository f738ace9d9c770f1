package io.muster.remote.ssh;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * How {@code muster remote} logs in and whom it trusts: the flags every host shares.
 *
 * @param identities private keys (-i), tried before the ssh-agent's ($SSH_AUTH_SOCK) and ~/.ssh/config's IdentityFile
 * @param knownHosts the known_hosts file (--known-hosts; default ~/.ssh/known_hosts)
 * @param acceptNewHostKeys add the key of a host not in known_hosts (a changed key is still refused)
 * @param allowInteractive ask for a password on the terminal when no key is accepted
 * @param sshConfig the OpenSSH client config honoured for HostName, User, Port and IdentityFile (default ~/.ssh/config; may not exist)
 * @param connectTimeout how long a connection may take to open
 */
public record SshSettings(List<Path> identities, Path knownHosts, boolean acceptNewHostKeys, boolean allowInteractive,
                          Path sshConfig, Duration connectTimeout) {
    public SshSettings {
        identities = List.copyOf(identities);
    }
}
