package io.muster.coordinator.auth;

import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.KeyValue;
import io.etcd.jetcd.op.Cmp;
import io.etcd.jetcd.op.CmpTarget;
import io.etcd.jetcd.op.Op;
import io.etcd.jetcd.options.DeleteOption;
import io.etcd.jetcd.options.GetOption;
import io.etcd.jetcd.options.PutOption;
import io.muster.agent.etcd.Backoff;
import io.muster.agent.etcd.Etcd;
import io.muster.agent.etcd.EtcdUnreachableException;
import io.muster.agent.etcd.Keys;
import io.muster.agent.etcd.StateWatch;
import io.muster.agent.pki.PemFiles;
import io.muster.coordinator.rollout.LeaderFence;
import io.muster.proto.fleet.CertificateRenewal;
import io.muster.proto.fleet.CertificateRotation;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.math.BigInteger;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PublicKey;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.X509EncodedKeySpec;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The leading coordinator renews the hosts' etcd client certificates on a schedule ({@code --rotate-certificates}):
 * a host whose newest certificate is older than that, and whose agent is alive, is asked ({@code
 * hosts/<host>/certificate}); its agent makes a new key and sends the public half ({@code renewals/<host>}); the
 * leader certifies it; the agent installs the certificate and says so; the leader revokes the host's earlier
 * certificates (etcd refuses them from their next connection) and deletes both keys. The private key never leaves
 * the host. Every write is fenced on the leader's election key, so a coordinator that lost the lead writes nothing.
 * A request stays until the host's agent answers (one started later finds it); a host that was not asked gets
 * nothing for a key it sends.
 */
public final class CertificateRotator {
    private static final Logger LOG = LoggerFactory.getLogger(CertificateRotator.class);
    private static final Duration LONGEST_CHECK = Duration.ofHours(1);
    private static final Duration SHORTEST_CHECK = Duration.ofSeconds(1);

    private final Etcd etcd;
    private final FleetPki pki;
    private final Duration every;
    private final Clock clock;
    private final Object lock = new Object();
    private SortedMap<String, ByteSequence> renewals; // guarded by lock: the hosts' answers as last seen, not handled yet

    /** @param every how old a host's certificate may get before it is renewed */
    public CertificateRotator(Etcd etcd, FleetPki pki, Duration every, Clock clock) {
        if (every.isNegative() || every.isZero()) throw new IllegalArgumentException("--rotate-certificates: expected a positive duration, got " + every);
        this.etcd = etcd;
        this.pki = pki;
        this.every = every;
        this.clock = clock;
    }

    /** How often the leader looks for hosts due: a tenth of the period, between a second and an hour. */
    Duration checkEvery() {
        Duration tenth = every.dividedBy(10);
        return tenth.compareTo(SHORTEST_CHECK) < 0 ? SHORTEST_CHECK : tenth.compareTo(LONGEST_CHECK) > 0 ? LONGEST_CHECK : tenth;
    }

    /** Rotates while {@code fence} holds, until {@code over} completes (the term ended). */
    public void lead(LeaderFence fence, CompletableFuture<?> over) {
        over.whenComplete((why, failure) -> {
            synchronized (lock) {
                lock.notifyAll();
            }
        });
        try (StateWatch<ByteSequence> watch = StateWatch.values(etcd, Keys.RENEWALS, true, Backoff.forCoordinator(), state -> {
            synchronized (lock) {
                renewals = state;
                lock.notifyAll();
            }
        })) {
            Instant nextCheck = clock.instant();
            SortedMap<String, ByteSequence> known = new TreeMap<>();
            while (!over.isDone()) {
                SortedMap<String, ByteSequence> answers;
                synchronized (lock) {
                    answers = renewals;
                    renewals = null;
                }
                if (answers != null) known = answers;
                boolean check = !clock.instant().isBefore(nextCheck);
                try {
                    if (answers != null || check) handle(fence, known);
                    if (check) {
                        askDue(fence);
                        nextCheck = clock.instant().plus(checkEvery());
                    }
                } catch (EtcdUnreachableException e) {
                    LOG.warn("certificate rotation: {}", e.getMessage());
                    nextCheck = clock.instant().plus(checkEvery());
                } catch (IOException e) {
                    LOG.error("certificate rotation: {}", e.getMessage());
                    nextCheck = clock.instant().plus(checkEvery());
                }
                synchronized (lock) {
                    long wait = Duration.between(clock.instant(), nextCheck).toMillis();
                    if (renewals == null && !over.isDone() && wait > 0) lock.wait(wait);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Answers each host's renewal: certifies a key it was asked for, or revokes what the new certificate replaces. */
    private void handle(LeaderFence fence, SortedMap<String, ByteSequence> answers) throws EtcdUnreachableException, IOException {
        for (Map.Entry<String, ByteSequence> answer : answers.entrySet()) {
            String host = Keys.parseRenewal(Keys.key(answer.getKey()));
            if (host == null) continue;
            CertificateRenewal renewal;
            CertificateRotation asked;
            try {
                renewal = CertificateRenewal.parseFrom(answer.getValue().getBytes());
                asked = asked(host);
            } catch (InvalidProtocolBufferException e) {
                LOG.warn("{}: not a certificate renewal ({})", answer.getKey(), e.getMessage());
                continue;
            } catch (IllegalArgumentException notAHost) {
                continue;
            }
            if (asked == null) continue; // not asked for: nothing to answer
            if (!renewal.getInstalledSerial().isEmpty()) {
                finish(fence, host, asked, renewal.getInstalledSerial());
            } else if (!renewal.getPublicKey().isEmpty() && !asked.getPublicKey().equals(renewal.getPublicKey())) {
                certify(fence, host, renewal.getPublicKey());
            }
        }
    }

    private void certify(LeaderFence fence, String host, ByteString publicKey) throws EtcdUnreachableException, IOException {
        PublicKey key;
        try {
            key = KeyFactory.getInstance("EC").generatePublic(new X509EncodedKeySpec(publicKey.toByteArray()));
        } catch (GeneralSecurityException e) {
            LOG.warn("{} sent a key that is not an EC public key ({}); asking again later", host, e.getMessage());
            return;
        }
        X509Certificate certificate;
        try {
            certificate = pki.certifyHost(host, key);
        } catch (IllegalArgumentException e) {
            LOG.warn("{}: {}", host, e.getMessage());
            return;
        }
        CertificateRotation answer = CertificateRotation.newBuilder().setPublicKey(publicKey).setCertificatePem(PemFiles.pem(certificate)).build();
        if (fenced(fence, Op.put(Keys.certificateRotation(host), ByteSequence.from(answer.toByteArray()), PutOption.DEFAULT))) {
            LOG.info("{}: issued certificate {} for its new key", host, certificate.getSerialNumber().toString(16));
        }
    }

    private void finish(LeaderFence fence, String host, CertificateRotation asked, String installed) throws EtcdUnreachableException, IOException {
        if (asked.getCertificatePem().isEmpty()) return;
        BigInteger serial;
        try {
            X509Certificate issued = (X509Certificate) CertificateFactory.getInstance("X.509")
                    .generateCertificate(new ByteArrayInputStream(asked.getCertificatePem().getBytes(StandardCharsets.US_ASCII)));
            serial = issued.getSerialNumber();
        } catch (GeneralSecurityException e) {
            throw new IOException(Keys.text(Keys.certificateRotation(host)) + ": not a certificate: " + e.getMessage(), e);
        }
        if (!serial.toString(16).equals(installed)) return; // an answer to an earlier round
        int revoked = pki.revokeAllBut(host, serial);
        if (fenced(fence, Op.delete(Keys.certificateRotation(host), DeleteOption.DEFAULT), Op.delete(Keys.renewal(host), DeleteOption.DEFAULT))) {
            LOG.info("{}: certificate rotated to {} ({} revoked)", host, installed, revoked);
        }
    }

    /** Asks each host whose newest certificate is older than the period, and whose agent is alive, to renew it. */
    private void askDue(LeaderFence fence) throws EtcdUnreachableException, IOException {
        for (String host : pki.hostsIssuedBefore(clock.instant().minus(every))) {
            if (etcd.await(etcd.kv().get(Keys.alive(host), GetOption.builder().withCountOnly(true).build())).getCount() == 0) continue;
            if (asked(host) != null) continue; // under way: the request stays until the agent answers
            ByteSequence key = Keys.certificateRotation(host);
            boolean put = etcd.await(etcd.kv().txn()
                    .If(fence.stillLeader(), new Cmp(key, Cmp.Op.EQUAL, CmpTarget.createRevision(0)))
                    .Then(Op.put(key, ByteSequence.from(CertificateRotation.newBuilder().setRequested(true).build().toByteArray()), PutOption.DEFAULT))
                    .commit()).isSucceeded();
            if (put) LOG.info("{}: its certificate is due for rotation; asked its agent for a new key", host);
        }
    }

    /** The rotation the leader asked {@code host} for, as stored; null when none is under way. */
    private CertificateRotation asked(String host) throws EtcdUnreachableException, InvalidProtocolBufferException {
        List<KeyValue> found = etcd.await(etcd.kv().get(Keys.certificateRotation(host))).getKvs();
        return found.isEmpty() ? null : CertificateRotation.parseFrom(found.getFirst().getValue().getBytes());
    }

    /** Runs {@code ops} if this coordinator still leads; returns whether it did. */
    private boolean fenced(LeaderFence fence, Op... ops) throws EtcdUnreachableException {
        return etcd.await(etcd.kv().txn().If(fence.stillLeader()).Then(ops).commit()).isSucceeded();
    }
}
