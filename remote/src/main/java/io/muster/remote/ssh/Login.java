package io.muster.remote.ssh;

import java.nio.file.Path;
import java.util.List;

/**
 * Where and as whom one destination is logged in to, once ~/.ssh/config is applied.
 *
 * @param host the name or address connected to (the config's HostName of an alias)
 * @param configIdentities the config's IdentityFile entries for this host, in order
 */
record Login(String user, String host, int port, List<Path> configIdentities) {
    /** user@host:port, as messages name the host. */
    @Override
    public String toString() {
        return user + "@" + (host.contains(":") ? "[" + host + "]" : host) + ":" + port;
    }
}
