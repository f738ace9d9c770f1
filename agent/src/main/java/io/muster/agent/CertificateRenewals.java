package io.muster.agent;

import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import io.etcd.jetcd.ByteSequence;
import io.muster.agent.etcd.Backoff;
import io.muster.agent.etcd.Etcd;
import io.muster.agent.etcd.EtcdTls;
import io.muster.agent.etcd.EtcdUnreachableException;
import io.muster.agent.etcd.Keys;
import io.muster.agent.etcd.StateWatch;
import io.muster.agent.pki.Credentials;
import io.muster.agent.pki.FleetCa;
import io.muster.agent.pki.PemFiles;
import io.muster.proto.fleet.CertificateRenewal;
import io.muster.proto.fleet.CertificateRotation;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.Arrays;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The agent's side of a certificate rotation the leading coordinator asks for ({@code hosts/<host>/certificate},
 * fleet.CertificateRotation): it makes a new key, which never leaves the host, and sends its public half ({@code
 * renewals/<host>}); when the coordinator has certified it, it replaces its {@code --etcd-key} and {@code
 * --etcd-cert} files (each whole: written aside, then renamed) and says which certificate it now uses, and the
 * coordinator revokes the earlier ones. Its connection to etcd stays open; the next one shows the new certificate
 * (the client reads the files again when they change). An agent restarted mid-way makes another key when asked again.
 */
final class CertificateRenewals implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger("muster.agent");

    private final Etcd etcd;
    private final String host;
    private final EtcdTls tls;
    private final Object lock = new Object();
    private CertificateRotation asked; // guarded by lock: the coordinator's side as last seen, not acted on yet
    private boolean closed; // guarded by lock
    private KeyPair pending; // the key whose certificate is awaited; only the worker thread touches it
    private final StateWatch<ByteSequence> watch;
    private final Thread worker;

    /** Follows {@code host}'s rotations; {@code tls} names the certificate and key files it replaces. */
    CertificateRenewals(Etcd etcd, String host, EtcdTls tls) {
        this.etcd = etcd;
        this.host = host;
        this.tls = tls;
        this.worker = Thread.ofVirtual().name("certificate renewal").start(this::work);
        this.watch = StateWatch.values(etcd, Keys.certificateRotation(host), false, Backoff.forAgent(), state -> {
            ByteSequence value = StateWatch.value(state, Keys.certificateRotation(host));
            if (value == null) return;
            try {
                CertificateRotation rotation = CertificateRotation.parseFrom(value.getBytes());
                synchronized (lock) {
                    asked = rotation;
                    lock.notifyAll();
                }
            } catch (InvalidProtocolBufferException e) {
                LOG.warn("{} is not a certificate rotation: {}", Keys.text(Keys.certificateRotation(host)), e.getMessage());
            }
        });
    }

    /**
     * Whether {@code tls} holds a certificate of the fleet's {@code host} (not a run's host, nor another client's):
     * the files a rotation may replace.
     */
    static boolean rotates(EtcdTls tls, String host) {
        if (tls == null || tls.certificate() == null) return false;
        try {
            return new Credentials(PemFiles.readCertificate(tls.certificate()), null).commonName().equals(FleetCa.hostUser(host));
        } catch (IOException e) {
            return false;
        }
    }

    private void work() {
        Backoff backoff = Backoff.forAgent();
        while (true) {
            CertificateRotation rotation;
            synchronized (lock) {
                while (asked == null && !closed) {
                    try {
                        lock.wait();
                    } catch (InterruptedException e) {
                        return;
                    }
                }
                if (closed) return;
                rotation = asked;
                asked = null;
            }
            try {
                act(rotation);
                backoff.reset();
            } catch (EtcdUnreachableException e) {
                LOG.warn("certificate rotation: {}; trying again", e.getMessage());
                synchronized (lock) {
                    if (asked == null) asked = rotation; // unless the coordinator said something newer meanwhile
                    try {
                        lock.wait(backoff.next().toMillis());
                    } catch (InterruptedException stop) {
                        return;
                    }
                }
            } catch (IOException | GeneralSecurityException e) {
                LOG.warn("certificate rotation failed, this host keeps its certificate: {}", e.getMessage());
            }
        }
    }

    private void act(CertificateRotation rotation) throws EtcdUnreachableException, IOException, GeneralSecurityException {
        boolean ours = pending != null && Arrays.equals(rotation.getPublicKey().toByteArray(), pending.getPublic().getEncoded());
        if (!rotation.getCertificatePem().isEmpty() && ours) {
            X509Certificate certificate = (X509Certificate) CertificateFactory.getInstance("X.509")
                    .generateCertificate(new ByteArrayInputStream(rotation.getCertificatePem().getBytes(StandardCharsets.US_ASCII)));
            if (!Arrays.equals(certificate.getPublicKey().getEncoded(), pending.getPublic().getEncoded())) {
                throw new GeneralSecurityException("the certificate the coordinator sent is not for the key this host made");
            }
            // the key first: until the certificate follows, the pair does not match and the client keeps the old one
            PemFiles.writeSecret(tls.key(), PemFiles.pem(pending.getPrivate()));
            PemFiles.writeSecret(tls.certificate(), PemFiles.pem(certificate));
            String serial = certificate.getSerialNumber().toString(16);
            answer(CertificateRenewal.newBuilder().setInstalledSerial(serial));
            pending = null;
            LOG.info("installed the new etcd client certificate {} in {}", serial, tls.certificate());
            return;
        }
        // asked (again), or answered for a key this agent no longer holds (it restarted): send the key awaited, or a new one
        if (pending == null || !rotation.getCertificatePem().isEmpty()) pending = FleetCa.newKeyPair();
        answer(CertificateRenewal.newBuilder().setPublicKey(ByteString.copyFrom(pending.getPublic().getEncoded())));
        LOG.info("the coordinator rotates this host's etcd certificate: sent a new key's public half");
    }

    private void answer(CertificateRenewal.Builder renewal) throws EtcdUnreachableException {
        etcd.await(etcd.kv().put(Keys.renewal(host), ByteSequence.from(renewal.build().toByteArray())));
    }

    @Override
    public void close() throws InterruptedException {
        watch.close();
        synchronized (lock) {
            closed = true;
            lock.notifyAll();
        }
        worker.join();
    }
}
