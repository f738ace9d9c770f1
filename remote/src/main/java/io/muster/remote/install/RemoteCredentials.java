package io.muster.remote.install;

import static io.muster.remote.ssh.Shell.quote;

import io.muster.agent.etcd.EtcdTls;
import io.muster.remote.ssh.SshConnection;
import io.muster.remote.ssh.SshException;
import java.util.ArrayList;
import java.util.List;

/**
 * A host's etcd client certificate for one run of its agent, copied over SSH into a directory of its own beside
 * muster's copy in the host's {@link RemoteCache}: {@code .tls-XXXXXXXX}, made by {@code mktemp -d} (0700, a name
 * nobody can guess), its files 0600, so no other local user of the host can read the key. The agent's command removes
 * the directory when the agent ends ({@link Placed#removal}), a connection dropped under the agent included; one a
 * connection dropped before the agent started is {@linkplain RemoteCache#abandon abandoned} to the cache, which removes
 * it at the next contact with the host, and the cache's clean-up takes those of a killed run once they are a day old.
 */
public final class RemoteCredentials {
    private final RemoteCache cache;

    /** @param cache the cache muster's copy is in, which removes what a dropped connection left at the next contact */
    public RemoteCredentials(RemoteCache cache) {
        this.cache = cache;
    }

    /** The certificate on the host, in {@code directory}. */
    public record Placed(String directory) {
        public String certificate() {
            return directory + "/etcd.crt";
        }

        public String key() {
            return directory + "/etcd.key";
        }

        public String ca() {
            return directory + "/ca.crt";
        }

        /** The shell command that removes it. */
        public String removal() {
            return "rm -rf " + quote(directory);
        }
    }

    /** Copies {@code local}'s files into a new private directory beside {@code installed}. */
    public Placed upload(SshConnection ssh, Installed installed, EtcdTls local) throws SshException, InterruptedException {
        String host = ssh.destination().name();
        String parent = installed.directory().substring(0, installed.directory().lastIndexOf('/'));
        List<String> output = new ArrayList<>();
        int status = ssh.exec("mktemp -d " + quote(parent + "/.tls-XXXXXXXX"), output::add);
        if (status != 0 || output.size() != 1 || !output.getFirst().startsWith(parent + "/.tls-")) {
            throw new SshException(host + ": cannot make a private directory for its etcd certificate in " + parent + ": "
                    + String.join("; ", output), false);
        }
        Placed placed = new Placed(output.getFirst());
        try {
            ssh.upload(local.certificate(), placed.certificate(), 0600);
            ssh.upload(local.key(), placed.key(), 0600);
            ssh.upload(local.ca(), placed.ca(), 0600);
        } catch (SshException e) {
            abandon(host, placed);
            throw e;
        }
        return placed;
    }

    /** {@code placed} may be left on {@code host} by a dropped connection: the next contact removes it. */
    public void abandon(String host, Placed placed) {
        cache.abandon(host, placed.directory());
    }
}
