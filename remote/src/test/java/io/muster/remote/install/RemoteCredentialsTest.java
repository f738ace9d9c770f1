package io.muster.remote.install;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.muster.agent.etcd.EtcdTls;
import io.muster.remote.ssh.JschConnector;
import io.muster.remote.ssh.SshConnection;
import io.muster.remote.ssh.SshException;
import io.muster.remote.testing.CuttingProxy;
import io.muster.remote.testing.SharedSshd;
import io.muster.remote.testing.Sshd;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** A host's etcd certificate on the host (the real sshd logs in on this machine, so the "remote" files are local ones). */
@ExtendWith(SharedSshd.class)
class RemoteCredentialsTest {
    private final Sshd sshd;

    @TempDir
    Path temp;

    RemoteCredentialsTest(Sshd sshd) {
        this.sshd = sshd;
    }

    private EtcdTls local() throws Exception {
        Path dir = Files.createDirectories(temp.resolve("here"));
        return new EtcdTls(Files.writeString(dir.resolve("web1.crt"), "certificate"), Files.writeString(dir.resolve("web1.key"), "key"),
                Files.writeString(dir.resolve("ca.crt"), "ca"));
    }

    @Test
    void theCertificateGoesIntoADirectoryOnlyItsOwnerCanEnterBesideMustersCopy() throws Exception {
        RemoteCache cache = new RemoteCache(temp.resolve("cache").toString());
        try (SshConnection ssh = sshd.connector().connect(sshd.destination())) {
            Installed installed = cache.ensure(ssh, FakePayload.create(temp, 1000));
            RemoteCredentials.Placed placed = new RemoteCredentials(cache).upload(ssh, installed, local());

            Path dir = Path.of(placed.directory());
            assertThat(dir.getParent()).isEqualTo(Path.of(installed.directory()).getParent());
            assertThat(dir.getFileName().toString()).matches("\\.tls-[A-Za-z0-9]{8}");
            assertThat(Files.getPosixFilePermissions(dir)).hasToString("[OWNER_READ, OWNER_WRITE, OWNER_EXECUTE]");
            assertThat(Path.of(placed.certificate())).hasContent("certificate");
            assertThat(Path.of(placed.key())).hasContent("key");
            assertThat(Path.of(placed.ca())).hasContent("ca");
            for (String file : new String[] {placed.certificate(), placed.key(), placed.ca()}) {
                assertThat(Files.getPosixFilePermissions(Path.of(file))).hasToString("[OWNER_READ, OWNER_WRITE]");
            }
        }
    }

    @Test
    void aCertificateADroppedConnectionLeftIsRemovedAtTheNextContact() throws Exception {
        RemoteCache cache = new RemoteCache(temp.resolve("cache").toString());
        RemoteCredentials credentials = new RemoteCredentials(cache);
        Payload payload = FakePayload.create(temp, 1000);
        RemoteCredentials.Placed placed;
        try (CuttingProxy proxy = new CuttingProxy(sshd.port())) {
            try (SshConnection ssh = throughProxy(proxy)) {
                placed = credentials.upload(ssh, cache.ensure(ssh, payload), local());
                proxy.cutAll();
                SshException dropped = catchThrowableOfType(SshException.class, () -> ssh.exec("true", line -> {}));
                assertThat(dropped.retriable()).isTrue();
                credentials.abandon(sshd.destinationVia(proxy.port()).name(), placed); // as the host's job does when its connection drops
            }
            assertThat(Path.of(placed.key())).as("nothing ran on the host to remove it").exists();

            try (SshConnection ssh = throughProxy(proxy)) {
                cache.ensure(ssh, payload);
            }
            assertThat(Path.of(placed.directory())).doesNotExist();
        }
    }

    private SshConnection throughProxy(CuttingProxy proxy) throws Exception {
        return new JschConnector(sshd.settingsVia(proxy.port()), sshd.localUser()).connect(sshd.destinationVia(proxy.port()));
    }
}
