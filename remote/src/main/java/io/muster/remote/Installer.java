package io.muster.remote;

import io.muster.remote.ssh.SshConnection;
import io.muster.remote.ssh.SshException;

/** Puts muster (its jar and Java runtime) on a host, and takes it away again for --no-caching. */
interface Installer {
    /**
     * muster on a host.
     *
     * @param java the runtime's java there
     * @param jar muster's jar there
     * @param uploaded whether it was uploaded now (else it was in the host's cache)
     * @param bytes how much was uploaded
     */
    record Installed(String java, String jar, boolean uploaded, long bytes) {}

    Installed install(SshConnection connection) throws SshException, InterruptedException;

    void remove(SshConnection connection, Installed installed) throws SshException, InterruptedException;
}
