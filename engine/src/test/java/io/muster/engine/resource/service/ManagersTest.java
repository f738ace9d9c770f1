package io.muster.engine.resource.service;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Which manager drives a service: tested on every host, whatever its init. */
class ManagersTest {
    @TempDir
    Path dir;

    @Test
    void systemdWhenItsRuntimeDirectoryExistsElseInitScripts() throws Exception {
        Path runtime = dir.resolve("run/systemd/system");

        assertThat(Managers.choose(null, runtime)).isEqualTo(Managers.Provider.INIT);
        Files.createDirectories(runtime);
        assertThat(Managers.choose(null, runtime)).isEqualTo(Managers.Provider.SYSTEMD);
    }

    @Test
    void theProviderAskedForWins() throws Exception {
        Files.createDirectories(dir.resolve("systemd"));

        assertThat(Managers.choose(Managers.Provider.INIT, dir.resolve("systemd"))).isEqualTo(Managers.Provider.INIT);
        assertThat(Managers.choose(Managers.Provider.SYSTEMD, dir.resolve("absent"))).isEqualTo(Managers.Provider.SYSTEMD);
    }

    @Test
    void aServiceNameMeansItsServiceUnitUnlessItNamesAType() {
        assertThat(Systemd.unit("nginx")).isEqualTo("nginx.service");
        assertThat(Systemd.unit("getty@tty1")).isEqualTo("getty@tty1.service");
        assertThat(Systemd.unit("docker.socket")).isEqualTo("docker.socket");
        assertThat(Systemd.unit("my.app")).isEqualTo("my.app.service");
    }

    @Test
    void theHostsOwnInitIsWhatTheKindChooses() {
        ServiceManager chosen = Managers.of(Managers.choose(null, Managers.SYSTEMD_RUNTIME), "app", Path.of("/run/app.pid"));

        assertThat(chosen).isInstanceOf(Files.isDirectory(Path.of("/run/systemd/system")) ? Systemd.class : InitScript.class);
    }
}
