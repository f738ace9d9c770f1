package io.muster.engine.health.goss;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** goss rules checked against this machine: its files, commands, sockets, accounts, packages and an HTTP server. */
class GossfileTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(20);

    @TempDir
    Path dir;

    private static List<String> failures(Map<String, Object> rules) throws InterruptedException {
        return Gossfile.of(rules).validate(TIMEOUT);
    }

    @Test
    void aFileIsCheckedForWhatItIsAndWhatItHolds() throws Exception {
        Path conf = dir.resolve("app.conf");
        Files.writeString(conf, "listen 8080\nworkers 4\n");
        Files.setPosixFilePermissions(conf, PosixFilePermissions.fromString("rw-r-----"));
        String path = conf.toString();

        assertThat(failures(Map.of("file", Map.of(path, Map.of("exists", true, "mode", "0640", "filetype", "file", "size", 22,
                "owner", "root", "contents", List.of("listen 8080", "/workers [0-9]+/", "!debug")))))).isEmpty();

        assertThat(failures(Map.of("file", Map.of(path, Map.of("mode", "0644", "contents", List.of("listen 9090", "!workers"))))))
                .containsExactlyInAnyOrder("file " + path + ": mode: expected \"0644\", got \"0640\"",
                        "file " + path + ": contents: patterns not found: [\"listen 9090\", \"!workers\"]");
        assertThat(failures(Map.of("file", Map.of(dir.resolve("gone").toString(), Map.of("exists", false))))).isEmpty();
        assertThat(failures(Map.of("file", Map.of(dir.resolve("gone").toString(), Map.of("mode", "0644")))))
                .containsExactly("file " + dir.resolve("gone") + ": mode: expected the file to exist, it does not");
    }

    @Test
    void aCommandIsRunOnceForItsStatusAndOutput() throws Exception {
        Path count = dir.resolve("runs");
        Map<String, Object> rules = Map.of("command", Map.of("counted", Map.of(
                "exec", "echo run >> " + count + "; echo version 2.7.1; echo warn >&2; exit 3",
                "exit-status", Map.of("lt", 4), "stdout", List.of("/version 2\\.[0-9]+/"), "stderr", Map.of("contain-substring", "warn"))));

        assertThat(failures(rules)).isEmpty();
        assertThat(Files.readAllLines(count)).hasSize(1);
        assertThat(failures(Map.of("command", Map.of("exit 1", Map.of("exit-status", 0)))))
                .containsExactly("command exit 1: exit-status: expected 0, got 1");
    }

    @Test
    void aListeningPortAProcessAndAnHttpAnswerAreSeen() throws Exception {
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/health", exchange -> {
            byte[] body = "{\"status\": \"up\"}".getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("X-App", "demo");
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.start();
        try (ServerSocket closed = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            int port = server.getAddress().getPort();
            int unused = closed.getLocalPort();
            closed.close();
            assertThat(failures(Map.of(
                    "port", Map.of("tcp:" + port, Map.of("listening", true, "ip", List.of("127.0.0.1")), "tcp:" + unused, Map.of("listening", false)),
                    "process", Map.of("java", Map.of("running", true), "no-such-process-x", Map.of("running", false)),
                    "http", Map.of("http://127.0.0.1:" + port + "/health", Map.of("status", 200, "body", List.of("\"up\""),
                            "headers", Map.of("contain-element", "X-App: demo"))),
                    "addr", Map.of("tcp://127.0.0.1:" + port, Map.of("reachable", true))))).isEmpty();
            assertThat(failures(Map.of("http", Map.of("http://127.0.0.1:" + port + "/missing", Map.of("status", 200)))))
                    .containsExactly("http http://127.0.0.1:" + port + "/missing: status: expected 200, got 404");
        } finally {
            server.stop(0);
        }
    }

    @Test
    void accountsPackagesAndKernelParametersAreLookedUp() throws Exception {
        assertThat(failures(Map.of(
                "user", Map.of("root", Map.of("exists", true, "uid", 0, "gid", 0, "home", "/root", "groups", Map.of("contain-element", "root")),
                        "no-such-user-x", Map.of("exists", false)),
                "group", Map.of("root", Map.of("exists", true, "gid", 0)),
                "package", Map.of("bash", Map.of("installed", true, "versions", Map.of("have-len", 1)), "no-such-package-x", Map.of("installed", false)),
                "kernel-param", Map.of("kernel.ostype", Map.of("value", "Linux")),
                "mount", Map.of("/proc", Map.of("exists", true, "filesystem", "proc"))))).isEmpty();
        assertThat(failures(Map.of("user", Map.of("no-such-user-x", Map.of("uid", 1000)))))
                .containsExactly("user no-such-user-x: uid: expected the user to exist, it does not");
    }

    @Test
    void anIpv6AddressIsWrittenAsGoWritesIt() throws Exception {
        assertThat(Probe.PortProbe.text(InetAddress.getByName("::"))).isEqualTo("::");
        assertThat(Probe.PortProbe.text(InetAddress.getByName("::1"))).isEqualTo("::1");
        assertThat(Probe.PortProbe.text(InetAddress.getByName("fe80::1:0:0:5"))).isEqualTo("fe80::1:0:0:5");
        assertThat(Probe.PortProbe.text(InetAddress.getByName("2001:db8:0:1:0:0:0:1"))).isEqualTo("2001:db8:0:1::1");
        assertThat(Probe.PortProbe.text(InetAddress.getByName("127.0.0.1"))).isEqualTo("127.0.0.1");
    }

    @Test
    void matchersCombineAsGossDocumentsThem() {
        assertThat(Matcher.of(Map.of("and", List.of(Map.of("ge", 2), Map.of("not", Map.of("equal", 5)))), "x").mismatch(3)).isNull();
        assertThat(Matcher.of(Map.of("or", List.of(Map.of("have-prefix", "ab"), Map.of("have-suffix", "yz"))), "x").mismatch("xyz")).isNull();
        assertThat(Matcher.of(Map.of("consist-of", List.of("a", "b")), "x").mismatch(List.of("b", "a"))).isNull();
        assertThat(Matcher.of(Map.of("consist-of", List.of("a", "b")), "x").mismatch(List.of("b", "a", "c")))
                .isEqualTo("expected {consist-of: [\"a\", \"b\"]}, got [\"b\", \"a\", \"c\"] (also [\"c\"])");
        assertThat(Matcher.of(Map.of("contain-elements", List.of("a")), "x").mismatch(List.of("b", "a", "c"))).isNull();
        assertThat(Matcher.of(Map.of("match-regexp", "^v[0-9]"), "x").mismatch("v2.1")).isNull();
        assertThat(Matcher.of(Map.of("have-key-with-value", Map.of("k", "v")), "x").mismatch(Map.of("k", "v"))).isNull();
        assertThat(Matcher.of(80, "x").mismatch("80")).isNull();
        assertThat(Matcher.of("0644", "x").mismatch("644")).isNotNull();
        assertThat(Matcher.of(true, "x").mismatch(false)).isEqualTo("expected true, got false");
    }

    @Test
    void whatGossDoesNotHaveIsRefusedWhenRead() {
        assertThatThrownBy(() -> Gossfile.of(Map.of("files", Map.of("/x", Map.of("exists", true)))))
                .hasMessageStartingWith("unknown goss resource type 'files'; expected addr, command, dns, file, group,");
        assertThatThrownBy(() -> Gossfile.of(Map.of("file", Map.of("/x", Map.of("exist", true)))))
                .hasMessageStartingWith("file /x: unknown attribute 'exist'; a goss file has contents, exists, filetype,");
        assertThatThrownBy(() -> Gossfile.of(Map.of("command", Map.of("true", Map.of("exit-status", Map.of("less-than", 1))))))
                .hasMessageStartingWith("command true: exit-status: unknown matcher 'less-than'; goss's matchers are equal, lt,");
        assertThatThrownBy(() -> Gossfile.of(Map.of("file", Map.of("/x", Map.of("contents", List.of("/(unclosed/"))))))
                .hasMessageStartingWith("file /x: contents: not a regular expression: ");
    }

    @Test
    void aSkippedRuleIsNotChecked() throws Exception {
        Gossfile rules = Gossfile.of(Map.of("file", Map.of("/no/such/file", Map.of("exists", true, "skip", true))));
        assertThat(rules.validate(TIMEOUT)).isEmpty();
        assertThat(rules.size()).isZero();
    }
}
