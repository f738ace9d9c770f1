package io.muster.engine.resource.service;

import static io.muster.engine.testing.Manifests.resource;
import static io.muster.engine.testing.TestAccounts.output;
import static org.assertj.core.api.Assertions.assertThat;

import io.muster.engine.report.Report;
import io.muster.engine.report.Status;
import io.muster.engine.testing.Manifests;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIf;
import org.junit.jupiter.api.io.TempDir;

/** The systemd manager on a host booted with systemd (skipped elsewhere: a container's pid 1 is not systemd). */
@EnabledIf("bootedWithSystemd")
class SystemdServiceTest {
    @TempDir
    Path dir;

    private final String name = "muster-test-" + HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextInt());
    private final Path unit = Path.of("/etc/systemd/system", name + ".service");

    static boolean bootedWithSystemd() {
        return Files.isDirectory(Managers.SYSTEMD_RUNTIME);
    }

    @BeforeEach
    void writeUnit() throws Exception {
        Files.writeString(unit, "[Unit]\nDescription=muster test\n[Service]\nExecStart=/bin/sleep infinity\n[Install]\nWantedBy=multi-user.target\n");
        output("systemctl", "daemon-reload");
    }

    @AfterEach
    void removeUnit() throws Exception {
        output("systemctl", "disable", "--now", name);
        Files.deleteIfExists(unit);
        output("systemctl", "daemon-reload");
    }

    private Report apply(String yaml) throws Exception {
        return new Manifests(dir).apply(yaml.replace("NAME", name));
    }

    private String mainPid() throws Exception {
        return output("systemctl", "show", "--value", "--property=MainPID", name).strip();
    }

    @Test
    void startsRestartsOnRefreshEnablesAndStops() throws Exception {
        assertThat(resource(apply("resources: [{service: {name: NAME, ensure: running, enable: true}}]"), "service#" + name)
                .changedAttributes()).containsExactly("ensure", "enable");
        assertThat(output("systemctl", "is-active", name).strip()).isEqualTo("active");
        assertThat(output("systemctl", "is-enabled", name).strip()).isEqualTo("enabled");
        String pid = mainPid();

        Report refreshed = apply("""
                resources:
                  - file: [{ROOT/conf: {content: "a\\n", notify: service#NAME}}]
                  - service: {name: NAME, ensure: running, enable: true}
                """);
        assertThat(resource(refreshed, "service#" + name).changedAttributes()).containsExactly("restarted");
        assertThat(mainPid()).isNotEqualTo(pid);

        Report stopped = apply("resources: [{service: {name: NAME, ensure: stopped, enable: false}}]");
        assertThat(resource(stopped, "service#" + name).status()).isEqualTo(Status.CHANGED);
        assertThat(output("systemctl", "is-active", name).strip()).isEqualTo("inactive");
        assertThat(output("systemctl", "is-enabled", name).strip()).isEqualTo("disabled");
    }
}
