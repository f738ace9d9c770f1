package io.muster.remote;

import io.muster.agent.etcd.Etcd;
import io.muster.agent.etcd.EtcdTls;
import io.muster.agent.etcd.EtcdUnreachableException;
import io.muster.coordinator.auth.FleetAuth;
import io.muster.coordinator.auth.FleetPki;
import io.muster.engine.resource.Kinds;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The etcd users and client certificates of one run's hosts. Each host, as its job starts, is given an etcd user and
 * role that may write its own keys and read its own graph only ({@link FleetAuth#addHost}), and a certificate of its
 * own, made for this run, written into the run's local directory (0700, keys 0600) for the upload. Closing removes the
 * users and roles made on a shared etcd; a private etcd takes them with its data.
 */
final class HostCertificates implements AutoCloseable {
    private final FleetPki pki;
    private final Path etcdCa;
    private final Etcd root;
    private final FleetAuth auth;
    private final boolean removeOnClose;
    private final Path dir;
    private final Set<String> admitted = ConcurrentHashMap.newKeySet();

    /**
     * @param etcdCa the CA the agents trust etcd's certificate by
     * @param root a client logged in as etcd's root, kept open until {@link #close}
     * @param removeOnClose true on a shared etcd, whose users outlive the run
     * @param dir where the hosts' certificates are written
     */
    HostCertificates(FleetPki pki, Path etcdCa, Etcd root, FleetAuth auth, boolean removeOnClose, Path dir) {
        this.pki = pki;
        this.etcdCa = etcdCa;
        this.root = root;
        this.auth = auth;
        this.removeOnClose = removeOnClose;
        this.dir = dir;
    }

    /** Lets {@code host} into the run's etcd: its user and role, and the TLS files its agent logs in with. */
    EtcdTls admit(String host) throws EtcdUnreachableException, IOException {
        admitted.add(host);
        auth.addHost(host, Kinds.installed().names());
        String user = auth.userOf(host);
        pki.issueClient(user).write(dir, user);
        return new EtcdTls(dir.resolve(user + ".crt"), dir.resolve(user + ".key"), etcdCa);
    }

    @Override
    public void close() throws EtcdUnreachableException {
        try {
            if (!removeOnClose) return;
            for (String host : admitted) auth.removeHost(host);
            auth.removeHostsRole();
        } finally {
            root.close();
        }
    }
}
