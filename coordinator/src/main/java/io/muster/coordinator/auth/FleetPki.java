package io.muster.coordinator.auth;

import io.muster.agent.etcd.EtcdTls;
import io.muster.agent.pki.Credentials;
import io.muster.agent.pki.FleetCa;
import io.muster.agent.pki.PemFiles;
import java.io.IOException;
import java.math.BigInteger;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.PublicKey;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The coordinator's certificates, in one directory (0700, keys 0600), made the first time: the fleet's CA ({@code
 * ca.crt}), etcd's server certificate ({@code etcd.crt}, for the hosts of the --etcd URLs, 127.0.0.1 and localhost),
 * and the client certificates of etcd's {@code root} ({@code root.crt}) and of the coordinator ({@code
 * coordinator.crt}). An etcd of the fleet runs with {@link #etcdFlags()}.
 *
 * <p>The hosts' certificates are recorded as they are issued ({@code issued.txt}); rotating a host's ({@link
 * #rotateHost}) revokes those it had, and the revocation list etcd reads at each new connection ({@code crl.pem},
 * written empty the first time) lists them.
 */
public final class FleetPki {
    public static final String ETCD = "etcd";
    public static final String ROOT = "root";
    public static final String COORDINATOR = "coordinator";
    public static final String CRL = "crl.pem";

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
        FleetPki pki = new FleetPki(dir, ca);
        if (!Files.exists(dir.resolve(CRL))) pki.writeRevocationList(IssuedCertificates.read(dir));
        return pki;
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

    /** A new certificate and key for {@code host}'s agent, recorded: its etcd user is {@link FleetAuth#hostUser}. */
    public Credentials issueHost(String host) throws IOException {
        Credentials credentials = issueClient(FleetAuth.hostUser(host));
        record(credentials.certificate(), credentials.commonName());
        return credentials;
    }

    /**
     * A certificate for {@code host}'s agent of the key it made itself (a rotation: the private key never leaves the
     * host), recorded; its earlier certificates stay good until {@link #revokeAllBut}.
     */
    public synchronized X509Certificate certifyHost(String host, PublicKey key) throws IOException {
        String user = FleetAuth.hostUser(host);
        X509Certificate certificate = ca.certify(user, key);
        record(certificate, user);
        return certificate;
    }

    private synchronized void record(X509Certificate certificate, String user) throws IOException {
        List<IssuedCertificates.Entry> issued = IssuedCertificates.read(dir);
        // the time of issue, not the certificate's notBefore (set back for clocks that lag)
        issued.add(new IssuedCertificates.Entry(certificate.getSerialNumber(), user, null, Instant.now()));
        IssuedCertificates.write(dir, issued);
    }

    /**
     * Revokes every certificate issued to {@code host} but {@code kept} (null: all): etcd refuses them at their next
     * connection.
     *
     * @return how many were revoked now
     */
    public synchronized int revokeAllBut(String host, BigInteger kept) throws IOException {
        String user = FleetAuth.hostUser(host);
        Instant now = Instant.now();
        int revoked = 0;
        List<IssuedCertificates.Entry> issued = IssuedCertificates.read(dir);
        for (int i = 0; i < issued.size(); i++) {
            IssuedCertificates.Entry e = issued.get(i);
            if (e.user().equals(user) && e.revoked() == null && !e.serial().equals(kept)) {
                issued.set(i, new IssuedCertificates.Entry(e.serial(), user, now, e.issued()));
                revoked++;
            }
        }
        if (revoked > 0) {
            writeRevocationList(issued);
            IssuedCertificates.write(dir, issued);
        }
        return revoked;
    }

    /**
     * The fleet's hosts (not a run's) whose newest good certificate was issued before {@code before}, or at a time not
     * recorded: those a rotation is due for. A host with no good certificate (removed, or never enrolled here) is not.
     */
    public synchronized Set<String> hostsIssuedBefore(Instant before) throws IOException {
        Map<String, Instant> newest = new TreeMap<>();
        for (IssuedCertificates.Entry e : IssuedCertificates.read(dir)) {
            if (e.revoked() != null || !e.user().startsWith(FleetCa.HOST_USER)) continue;
            Instant issued = e.issued() == null ? Instant.EPOCH : e.issued();
            newest.merge(e.user(), issued, (a, b) -> a.isAfter(b) ? a : b);
        }
        Set<String> due = new TreeSet<>();
        newest.forEach((user, issued) -> {
            if (issued.isBefore(before)) due.add(user.substring(FleetCa.HOST_USER.length()));
        });
        return due;
    }

    /**
     * A new certificate for {@code host}'s agent, every one issued to it before revoked: etcd refuses them at their
     * next connection (one open now stays open until it ends).
     *
     * @return the new certificate, and how many were revoked
     */
    public synchronized Rotated rotateHost(String host) throws IOException {
        int revoked = revokeAllBut(host, null);
        return new Rotated(issueHost(host), revoked);
    }

    /** A host's new certificate, and how many of its earlier ones are revoked. */
    public record Rotated(Credentials credentials, int revoked) {}

    /** The revocation list of {@code issued}'s revoked certificates, written whole before anything says they are. */
    private void writeRevocationList(List<IssuedCertificates.Entry> issued) throws IOException {
        Map<BigInteger, Instant> revoked = new TreeMap<>();
        for (IssuedCertificates.Entry e : issued) if (e.revoked() != null) revoked.put(e.serial(), e.revoked());
        PemFiles.writeSecret(dir.resolve(CRL), PemFiles.pem(ca.revocationList(revoked)));
    }

    /** A new certificate and key for the etcd user {@code user} (a run's host: {@link FleetAuth#userOf}). */
    public Credentials issueClient(String user) {
        return ca.client(user);
    }

    /** True when {@code dir} holds a fleet CA (its key): the certificates of {@link #openOrCreate} can be made there. */
    public static boolean hasCa(Path dir) {
        return Files.exists(dir.resolve(FleetCa.FILE + ".key"));
    }

    /** The flags etcd serves the fleet with: TLS with {@code etcd.crt}, clients by certificates of this CA not revoked. */
    public List<String> etcdFlags() {
        return List.of("--cert-file", dir.resolve(ETCD + ".crt").toString(), "--key-file", dir.resolve(ETCD + ".key").toString(),
                "--trusted-ca-file", caFile().toString(), "--client-cert-auth", "--client-crl-file", dir.resolve(CRL).toString());
    }
}
