package io.muster.coordinator.auth;

import io.muster.agent.etcd.EtcdTls;
import io.muster.agent.pki.Credentials;
import io.muster.agent.pki.FleetCa;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The coordinator's certificates, in one directory (0700, keys 0600), made the first time: the fleet's CA ({@code
 * ca.crt}), etcd's server certificate ({@code etcd.crt}, for the hosts of the --etcd URLs, 127.0.0.1 and localhost),
 * and the client certificates of etcd's {@code root} ({@code root.crt}) and of the coordinator ({@code
 * coordinator.crt}). An etcd of the fleet runs with {@link #etcdFlags()}.
 */
public final class FleetPki {
    public static final String ETCD = "etcd";
    public static final String ROOT = "root";
    public static final String COORDINATOR = "coordinator";

    private final Path dir;
    private final FleetCa ca;

    private FleetPki(Path dir, FleetCa ca) {
        this.dir = dir;
        this.ca = ca;
    }

    /** The certificates in {@code dir}, those missing made for an etcd reached at {@code endpoints}. */
    public static FleetPki openOrCreate(Path dir, List<URI> endpoints) throws IOException {
        FleetCa ca = FleetCa.openOrCreate(dir);
        if (!Files.exists(dir.resolve(ETCD + ".key"))) {
            Set<String> names = new LinkedHashSet<>(List.of("127.0.0.1", "localhost"));
            for (URI endpoint : endpoints) names.add(endpoint.getHost().replaceAll("^\\[|\\]$", ""));
            ca.server(new ArrayList<>(names)).write(dir, ETCD);
        }
        if (!Files.exists(dir.resolve(ROOT + ".key"))) ca.client(FleetAuth.ROOT).write(dir, ROOT);
        if (!Files.exists(dir.resolve(COORDINATOR + ".key"))) ca.client(FleetAuth.COORDINATOR).write(dir, COORDINATOR);
        return new FleetPki(dir, ca);
    }

    public Path dir() {
        return dir;
    }

    public Path caFile() {
        return dir.resolve(FleetCa.FILE + ".crt");
    }

    public X509Certificate caCertificate() {
        return ca.certificate();
    }

    /** The TLS files of the client {@code name} ({@link #ROOT}, {@link #COORDINATOR}, or a host's written by {@link #writeHost}). */
    public EtcdTls tls(String name) {
        return new EtcdTls(dir.resolve(name + ".crt"), dir.resolve(name + ".key"), caFile());
    }

    /** A new certificate and key for {@code host}'s agent: its etcd user is {@link FleetAuth#hostUser}. */
    public Credentials issueHost(String host) {
        return issueClient(FleetAuth.hostUser(host));
    }

    /** A new certificate and key for the etcd user {@code user} (a run's host: {@link FleetAuth#userOf}). */
    public Credentials issueClient(String user) {
        return ca.client(user);
    }

    /** True when {@code dir} holds a fleet CA (its key): the certificates of {@link #openOrCreate} can be made there. */
    public static boolean hasCa(Path dir) {
        return Files.exists(dir.resolve(FleetCa.FILE + ".key"));
    }

    /** The flags etcd serves the fleet with: TLS with {@code etcd.crt}, clients by certificates of this CA. */
    public List<String> etcdFlags() {
        return List.of("--cert-file", dir.resolve(ETCD + ".crt").toString(), "--key-file", dir.resolve(ETCD + ".key").toString(),
                "--trusted-ca-file", caFile().toString(), "--client-cert-auth");
    }
}
