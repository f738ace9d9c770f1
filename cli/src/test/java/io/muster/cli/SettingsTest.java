package io.muster.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.muster.engine.testing.Manifests;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Settings as a host keeps them: the command line wins over MUSTER_* variables, which win over muster.conf
 * (here at $MUSTER_CONFIG); a bad key or value names its file and line, or its variable, and what was expected.
 */
class SettingsTest {
    private static final String ESC = "\u001b[";
    private static final Duration PATIENCE = Duration.ofSeconds(30);

    @TempDir
    Path dir;

    private int runs;

    @Test
    void theCommandLineWinsOverTheEnvironmentWhichWinsOverTheFile() throws Exception {
        Path site = new Manifests(dir).write("site.yaml", """
                resources:
                  - file: [{ROOT/a: {content: "a\\n"}}]
                """);
        Path conf = conf("""
                # colour even in a pipe, state under DIR/from-file
                color = always
                prefix = %s
                """.formatted(dir.resolve("from-file")));

        MusterProcess fromFile = muster(Map.of("MUSTER_CONFIG", conf.toString()), "plan", site);
        assertThat(fromFile.awaitExit(PATIENCE)).isEqualTo(2);
        assertThat(fromFile.out()).contains(ESC + "33mchanged" + ESC + "0m");
        assertThat(dir.resolve("from-file/graph-cache")).as("plan's compiled-graph cache, in the file's prefix").isDirectory();

        MusterProcess fromEnvironment = muster(Map.of("MUSTER_CONFIG", conf.toString(), "MUSTER_COLOR", "never",
                "MUSTER_PREFIX", dir.resolve("from-env").toString()), "apply", site);
        assertThat(fromEnvironment.awaitExit(PATIENCE)).isZero();
        assertThat(fromEnvironment.out()).contains("changed").doesNotContain(ESC);
        assertThat(dir.resolve("from-env")).as("the state lock's directory").isDirectory();
        assertThat(dir.resolve("from-file/lock")).doesNotExist();

        Files.delete(dir.resolve("a"));
        MusterProcess fromCommandLine = muster(Map.of("MUSTER_CONFIG", conf.toString(), "MUSTER_COLOR", "never"),
                "plan", site, "--color", "always", "--prefix", dir.resolve("from-flag"));
        assertThat(fromCommandLine.awaitExit(PATIENCE)).isEqualTo(2);
        assertThat(fromCommandLine.out()).contains(ESC);

        MusterProcess help = muster(Map.of("MUSTER_CONFIG", conf.toString()), "apply", "--help");
        assertThat(help.awaitExit(PATIENCE)).isZero();
        assertThat(help.out()).as("help shows the default in force").contains("(default: always)");
    }

    @Test
    void fleetCommandsFindEtcdInTheFileAndMusterEtcdStillWinsOverIt() throws Exception {
        int fromFile = closedPort();
        int fromEnvironment = closedPort();
        Path conf = conf("etcd = 127.0.0.1:%d\nconnect-timeout = 1\n".formatted(fromFile));

        MusterProcess file = muster(Map.of("MUSTER_CONFIG", conf.toString()), "deploys");
        assertThat(file.awaitExit(PATIENCE)).isEqualTo(1);
        assertThat(file.err()).startsWith("muster: cannot reach etcd at http://127.0.0.1:" + fromFile + ": ");

        MusterProcess environment = muster(Map.of("MUSTER_CONFIG", conf.toString(), "MUSTER_ETCD", "127.0.0.1:" + fromEnvironment), "deploys");
        assertThat(environment.awaitExit(PATIENCE)).isEqualTo(1);
        assertThat(environment.err()).startsWith("muster: cannot reach etcd at http://127.0.0.1:" + fromEnvironment + ": ");
    }

    @Test
    void aBadKeyOrValueInTheFileNamesItsLineAndWhatWasExpected() throws Exception {
        Path site = new Manifests(dir).write("site.yaml", "resources: []\n");
        Path conf = conf("""
                # muster.conf
                semaa = 2
                sema = many
                color: always
                wait-lock = 5
                """);

        MusterProcess bad = muster(Map.of("MUSTER_CONFIG", conf.toString()), "plan", site);

        assertThat(bad.awaitExit(PATIENCE)).isEqualTo(64);
        assertThat(bad.err().lines()).containsExactly(
                "muster: " + conf + ":2: unknown key 'semaa' (did you mean 'sema'?); expected one of etcd, namespace, connect-timeout, "
                        + "etcd-cert, etcd-key, etcd-ca, prefix, host, facts, sema, max-apply-depth, compile-threads, wait-lock, lease-ttl, color, prometheus, "
                        + "prometheus-listen, listen, api-token-file, api-host",
                "muster: " + conf + ":3: sema: expected a whole number of 1 or more, got 'many'",
                "muster: " + conf + ":4: expected KEY = VALUE, got 'color: always'");
        assertThat(bad.out()).isEmpty();
    }

    @Test
    void aBadVariableOrAMissingNamedFileIsReportedToo() throws Exception {
        Path site = new Manifests(dir).write("site.yaml", "resources: []\n");
        Map<String, String> environment = new HashMap<>(Map.of("MUSTER_CONFIG", dir.resolve("nowhere.conf").toString()));
        environment.put("MUSTER_SEMA", "0");
        environment.put("MUSTER_COLOR", "sometimes");

        MusterProcess bad = muster(environment, "plan", site);

        assertThat(bad.awaitExit(PATIENCE)).isEqualTo(64);
        assertThat(bad.err().lines()).containsExactly(
                "muster: " + dir.resolve("nowhere.conf") + ": no such file (named by MUSTER_CONFIG)",
                "muster: MUSTER_SEMA=0: expected a whole number of 1 or more",
                "muster: MUSTER_COLOR=sometimes: expected auto, always or never");
    }

    private Path conf(String text) throws IOException {
        return Files.writeString(dir.resolve("muster.conf"), text);
    }

    private MusterProcess muster(Map<String, String> environment, Object... args) throws IOException {
        return MusterProcess.start(dir, "muster" + runs++, environment, args);
    }

    private static int closedPort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }
}
