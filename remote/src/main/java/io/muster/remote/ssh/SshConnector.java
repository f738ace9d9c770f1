package io.muster.remote.ssh;

/** Opens SSH connections: authenticates, and checks the host's key against known_hosts. */
public interface SshConnector {
    SshConnection connect(Destination destination) throws SshException, InterruptedException;
}
