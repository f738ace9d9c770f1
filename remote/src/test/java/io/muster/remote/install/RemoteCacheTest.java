package io.muster.remote.install;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.muster.engine.util.FileTrees;
import io.muster.remote.ssh.Destination;
import io.muster.remote.ssh.JschConnector;
import io.muster.remote.ssh.SshConnection;
import io.muster.remote.ssh.SshException;
import io.muster.remote.ssh.SshSettings;
import io.muster.remote.testing.CuttingProxy;
import io.muster.remote.testing.SharedSshd;
import io.muster.remote.testing.Sshd;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** The payload's copy on a host (the real sshd logs in on this machine, so the "remote" cache is a local directory). */
@ExtendWith(SharedSshd.class)
class RemoteCacheTest {
    private final Sshd sshd;

    @TempDir
    Path temp;

    RemoteCacheTest(Sshd sshd) {
        this.sshd = sshd;
    }

    @Test
    void theFirstRunUploadsTheNextReusesAndTheRuntimeRuns() throws Exception {
        Payload payload = FakePayload.create(temp, 50_000);
        Path root = temp.resolve("cache/muster");
        RemoteCache cache = new RemoteCache(root.toString());
        try (SshConnection ssh = sshd.connector().connect(sshd.destination())) {
            Installed first = cache.ensure(ssh, payload);
            assertThat(first.uploaded()).isTrue();
            assertThat(first.directory()).isEqualTo(root.resolve(payload.digest()).toString());
            assertThat(first.bytesUploaded()).isEqualTo(payload.files().stream().mapToLong(PayloadFile::size).sum());
            assertThat(Path.of(first.jar())).hasSameBinaryContentAs(payload.jar());
            assertThat(Path.of(first.directory(), "runtime/legal/java.logging/LICENSE")).isRegularFile().hasContent("GPLv2 with the classpath exception");
            List<String> lines = new ArrayList<>();
            assertThat(ssh.exec(first.java() + " -version", lines::add)).isZero();
            assertThat(lines).containsExactly("fake java -version");

            Installed second = cache.ensure(ssh, payload);
            assertThat(second).isEqualTo(new Installed(first.directory(), false, 0));
        }
        assertThat(entries(root)).containsExactly(payload.digest());
    }

    @Test
    void aConnectionCutMidUploadLeavesNoCopyInPlaceAndATryAgainInstallsIt() throws Exception {
        Payload payload = FakePayload.create(temp, 3_000_000);
        Path root = temp.resolve("cache");
        RemoteCache cache = new RemoteCache(root.toString());
        try (CuttingProxy proxy = new CuttingProxy(sshd.port())) {
            try (SshConnection ssh = throughProxy(proxy)) {
                proxy.cutAfter(1_000_000);
                SshException dropped = catchThrowableOfType(SshException.class, () -> cache.ensure(ssh, payload));
                assertThat(dropped.retriable()).isTrue();
            }
            assertThat(root.resolve(payload.digest())).doesNotExist();

            try (SshConnection ssh = throughProxy(proxy)) {
                assertThat(cache.ensure(ssh, payload).uploaded()).isTrue();
            }
            assertThat(root.resolve(payload.digest()).resolve("muster.jar")).hasSameBinaryContentAs(payload.jar());
            assertThat(entries(root)).as("the copy the cut left aside is removed once the host is reached again").containsExactly(payload.digest());
        }
    }

    @Test
    void aCopyThatDoesNotMatchItsChecksumsIsNotInstalled() throws Exception {
        Payload payload = FakePayload.create(temp, 1000);
        FakePayload.writeListing(payload);
        Path listing = payload.runtime().resolve(Payload.RUNTIME_LISTING);
        Files.writeString(listing, Files.readString(listing).replaceAll("[0-9a-f]{64}(  ./bin/java)", "0".repeat(64) + "$1"));
        Path root = temp.resolve("cache");
        try (SshConnection ssh = sshd.connector().connect(sshd.destination())) {
            SshException refused = catchThrowableOfType(SshException.class, () -> new RemoteCache(root.toString()).ensure(ssh, payload));
            assertThat(refused.getMessage()).contains("does not match", "runtime/bin/java: FAILED");
            assertThat(refused.retriable()).isFalse();
        }
        assertThat(entries(root)).isEmpty();
    }

    @Test
    void aDirectoryWithoutTheCompletionMarkerIsReplaced() throws Exception {
        Payload payload = FakePayload.create(temp, 1000);
        Path root = temp.resolve("cache");
        Path broken = Files.createDirectories(root.resolve(payload.digest()).resolve("runtime"));
        try (SshConnection ssh = sshd.connector().connect(sshd.destination())) {
            assertThat(new RemoteCache(root.toString()).ensure(ssh, payload).uploaded()).isTrue();
        }
        assertThat(broken.resolve("bin/java")).isExecutable();
        assertThat(entries(root)).containsExactly(payload.digest());
    }

    @Test
    void copiesAndCertificatesLeftByInterruptedRunsGoOnceADayOld() throws Exception {
        Payload payload = FakePayload.create(temp, 1000);
        Path root = temp.resolve("cache");
        for (String old : List.of(".tmp-old-run", ".tls-oldrun1")) {
            Files.setLastModifiedTime(Files.createDirectories(root.resolve(old)), FileTime.from(Instant.now().minus(Duration.ofHours(25))));
        }
        Files.createDirectories(root.resolve(".tmp-running-run"));
        Files.createDirectories(root.resolve(".tls-running"));
        try (SshConnection ssh = sshd.connector().connect(sshd.destination())) {
            new RemoteCache(root.toString()).ensure(ssh, payload);
        }
        assertThat(entries(root)).containsExactlyInAnyOrder(payload.digest(), ".tmp-running-run", ".tls-running");
    }

    @Test
    void removeLeavesNothing() throws Exception {
        Payload payload = FakePayload.create(temp, 1000);
        Path root = temp.resolve("cache/muster");
        RemoteCache cache = new RemoteCache(root.toString());
        try (SshConnection ssh = sshd.connector().connect(sshd.destination())) {
            cache.remove(ssh, cache.ensure(ssh, payload));
        }
        assertThat(root).doesNotExist();
        assertThat(root.getParent()).isEmptyDirectory();
    }

    @Test
    void copiesOfTheirOwnNeverRemoveEachOther() throws Exception {
        Payload payload = FakePayload.create(temp, 1000);
        Path root = temp.resolve("cache/muster");
        RemoteCache shared = new RemoteCache(root.toString());
        try (SshConnection ssh = sshd.connector().connect(sshd.destination())) {
            Installed kept = shared.ensure(ssh, payload);
            RemoteCache web1 = shared.ofItsOwn("run-1-web1");
            RemoteCache web2 = shared.ofItsOwn("run-1-web2");
            Installed first = web1.ensure(ssh, payload);
            Installed second = web2.ensure(ssh, payload);
            assertThat(first.directory()).isNotEqualTo(second.directory()).isNotEqualTo(kept.directory());

            web1.remove(ssh, first);
            assertThat(Path.of(second.java())).exists();
            assertThat(Path.of(kept.java())).as("an earlier run's copy goes with the last copy of one's own").doesNotExist();
            web2.remove(ssh, second);
        }
        assertThat(root).doesNotExist();
    }

    @Test
    void aRootUnderTheHomeIsTheSshUsersHome() throws Exception {
        Payload payload = FakePayload.create(temp, 1000);
        String unique = ".muster-test-" + ProcessHandle.current().pid() + "-" + System.nanoTime();
        Path home = Path.of(System.getProperty("user.home"));
        RemoteCache cache = new RemoteCache("~/" + unique + "/cache");
        try (SshConnection ssh = sshd.connector().connect(sshd.destination())) {
            Installed installed = cache.ensure(ssh, payload);
            assertThat(installed.directory()).isEqualTo(home.resolve(unique + "/cache/" + payload.digest()).toString());
            assertThat(Path.of(installed.jar())).hasSameBinaryContentAs(payload.jar());
            cache.remove(ssh, installed);
        } finally {
            FileTrees.delete(home.resolve(unique));
        }
    }

    private SshConnection throughProxy(CuttingProxy proxy) throws Exception {
        return new JschConnector(sshd.settingsVia(proxy.port()), sshd.localUser()).connect(sshd.destinationVia(proxy.port()));
    }

    private static List<String> entries(Path dir) throws Exception {
        if (!Files.exists(dir)) return List.of();
        try (Stream<Path> list = Files.list(dir)) {
            return list.map(p -> p.getFileName().toString()).toList();
        }
    }
}
