package io.muster.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.muster.agent.testing.LocalEtcd;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** {@code muster coordinator}'s HTTP API as a process serves it: --listen (or the listen setting), --api-token-file, a taken port. */
@ExtendWith(LocalEtcd.class)
class CoordinatorApiTest {
    private static final Pattern SERVED = Pattern.compile("API and web page: (http://127\\.0\\.0\\.1:[0-9]+/)");

    @TempDir
    Path dir;

    @Test
    void theListenSettingNamesTheAddressAndTheTokenFileEnablesChanges(LocalEtcd local) throws Exception {
        Path token = Files.writeString(dir.resolve("token"), "t0ken\n");
        Object[] fleet = {"--etcd", local.endpoint(), "--namespace", LocalEtcd.uniqueNamespace("api-cli")};
        try (MusterProcess coordinator = MusterProcess.start(dir, "c", Map.of("MUSTER_LISTEN", "127.0.0.1:0"), "coordinator", "--name", "c",
                "--prefix", dir.resolve("c"), "--api-token-file", token, fleet[0], fleet[1], fleet[2], fleet[3])) {
            String url = await().atMost(Duration.ofSeconds(30)).until(() -> served(coordinator.out()), u -> u != null);
            try (HttpClient http = HttpClient.newHttpClient()) {
                HttpResponse<String> info = http.send(HttpRequest.newBuilder(URI.create(url + "api/v1")).build(), HttpResponse.BodyHandlers.ofString());
                assertThat(info.statusCode()).isEqualTo(200);
                assertThat(info.body()).contains("\"coordinator\":\"c\"", "\"changes\":true");
                HttpResponse<String> page = http.send(HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.ofString());
                assertThat(page.body()).contains("<title>muster fleet</title>");
            }
            coordinator.terminate();
            assertThat(coordinator.awaitExit(Duration.ofSeconds(20))).isZero();
        }
    }

    @Test
    void aTakenAddressIsAWarningAndTheCoordinatorLeadsWithoutItsApi(LocalEtcd local) throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
             MusterProcess coordinator = MusterProcess.start(dir, "c", "coordinator", "--name", "c", "--prefix", dir.resolve("c"),
                     "--listen", "127.0.0.1:" + taken.getLocalPort(), "--etcd", local.endpoint(), "--namespace", LocalEtcd.uniqueNamespace("api-taken"))) {
            await().atMost(Duration.ofSeconds(30)).until(() -> coordinator.err().contains("c leads"));
            assertThat(coordinator.err()).contains("muster: warning: cannot listen on 127.0.0.1:" + taken.getLocalPort()
                    + " (--listen): Address already in use; the coordinator runs without its API and web page");
            coordinator.terminate();
            assertThat(coordinator.awaitExit(Duration.ofSeconds(20))).isZero();
        }
    }

    @Test
    void aBadAddressIsAUsageErrorAndAMissingTokenFileStopsTheStart(LocalEtcd local) {
        Cli bad = Cli.run("coordinator", "--listen", "localhost", "--etcd", local.endpoint());
        assertThat(bad.exit()).isEqualTo(64);
        assertThat(bad.err()).contains("--listen: expected HOST:PORT, got 'localhost'");
        Cli missing = Cli.run("coordinator", "--listen", "127.0.0.1:0", "--api-token-file", dir.resolve("nosuch"), "--prefix", dir.resolve("c"),
                "--etcd", local.endpoint(), "--namespace", LocalEtcd.uniqueNamespace("api-token"));
        assertThat(missing.exit()).isEqualTo(1);
        assertThat(missing.err()).contains("muster: --api-token-file " + dir.resolve("nosuch") + ": cannot read it");
    }

    private static String served(String out) {
        Matcher m = SERVED.matcher(out);
        return m.find() ? m.group(1) : null;
    }
}
