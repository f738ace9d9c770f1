package io.muster.coordinator.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.muster.agent.testing.LocalEtcd;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** The Host header check against DNS rebinding, with requests written by hand (Java's HTTP client sets Host itself). */
@ExtendWith(LocalEtcd.class)
class HostCheckTest {
    @TempDir
    Path dir;

    private ApiFleet fleet;

    @AfterEach
    void close() throws Exception {
        if (fleet != null) fleet.close();
    }

    /** The status line and body of a GET of {@code path} with {@code host} as its Host header (none: null). */
    private static String get(int port, String path, String host) throws Exception {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            OutputStream out = socket.getOutputStream();
            out.write(("GET " + path + " HTTP/1.1\r\n" + (host == null ? "" : "Host: " + host + "\r\n") + "Connection: close\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = socket.getInputStream();
            String response = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            return response.lines().findFirst().orElseThrow() + "\n" + response.substring(response.indexOf("\r\n\r\n") + 4);
        }
    }

    @Test
    void aRequestNamingTheCoordinatorByAnotherNameIsRefusedWithOneLine(LocalEtcd local) throws Exception {
        fleet = new ApiFleet(local, "api-host", dir, null);
        try (ApiServer api = ApiServer.start(fleet.client, new ApiOptions("127.0.0.1:0", null, List.of("Muster.Example.org")), "c1",
                () -> true, new CompileHistogram())) {
            int port = api.port();
            for (String admitted : List.of("127.0.0.1:" + port, "localhost:" + port, "[::1]:" + port, "10.1.2.3:" + port,
                    "muster.example.org", "muster.example.org:443", "MUSTER.EXAMPLE.ORG:" + port)) {
                assertThat(get(port, "/api/v1/hosts", admitted)).as(admitted).startsWith("HTTP/1.1 200");
            }
            String rebound = get(port, "/api/v1/hosts", "attacker.example:" + port);
            assertThat(rebound).isEqualTo("HTTP/1.1 421 \n{\"schema\":1,\"error\":\"Host 'attacker.example:" + port
                    + "' is not a name of this coordinator (refused against DNS rebinding): use an IP address or localhost with port " + port
                    + ", or start the coordinator with --api-host NAME\"}");
            for (String refused : List.of("localhost:1", "127.0.0.1", "localhost.attacker.example:" + port)) {
                assertThat(get(port, "/", refused)).as(refused).startsWith("HTTP/1.1 421");
            }
            assertThat(get(port, "/metrics", "attacker.example:" + port)).startsWith("HTTP/1.1 421");
            assertThat(get(port, "/api/v1/events", "attacker.example:" + port)).startsWith("HTTP/1.1 421");
            assertThat(get(port, "/", null)).startsWith("HTTP/1.1 421").contains("no Host header");
        }
        // without --api-host, a name is refused but localhost
        assertThat(get(fleet.api.port(), "/api/v1", "muster.example.org:" + fleet.api.port())).startsWith("HTTP/1.1 421");
        assertThat(get(fleet.api.port(), "/api/v1", "localhost:" + fleet.api.port())).startsWith("HTTP/1.1 200");
    }
}
