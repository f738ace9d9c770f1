package io.muster.examples;

import static org.assertj.core.api.Assertions.assertThat;

import io.muster.cli.Cli;
import io.muster.engine.testing.Manifests;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every manifest in examples/, and the {@code site.yaml} of each subdirectory (the others there, and lib/, hold manifests
 * only applied by others), is applied through the CLI into a temp directory ({@code --data root=…}), for this host:
 * the first apply converges, the second changes nothing, and each example's files are as promised.
 */
class ExamplesTest {
    private static final Path EXAMPLES = Path.of("").toAbsolutePath();

    @TempDir
    Path root;

    /** The JSON summary's counts. */
    private static Map<String, Long> summary(Cli run) {
        Map<String, Long> counts = new java.util.LinkedHashMap<>();
        ((Map<?, ?>) Manifests.json(run.out()).get("summary")).forEach((k, v) -> counts.put((String) k, ((Number) v).longValue()));
        return counts;
    }

    private Cli apply(Path manifest, String... extra) {
        Object[] args = Stream.concat(Stream.of("apply", manifest, "--data", "root=" + root, "--tmp-prefix",
                "--output", "json", "--detailed-exitcodes"), Stream.of(extra)).toArray();
        return Cli.run(args);
    }

    static Stream<Path> examples() throws IOException {
        try (var files = Files.list(EXAMPLES)) {
            return files.map(f -> Files.isDirectory(f) ? f.resolve("site.yaml") : f)
                    .filter(f -> f.toString().endsWith(".yaml") && Files.isRegularFile(f))
                    .filter(f -> !f.getFileName().toString().equals("webserver.yaml")) // root and a package: WebserverExampleTest
                    .sorted().toList().stream();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("examples")
    void everyExampleConvergesAndIsIdempotent(Path manifest) {
        assertThat(Cli.run("validate", manifest).exit()).isZero();
        Cli first = apply(manifest);
        assertThat(first.err()).doesNotContain("ERROR");
        assertThat(summary(first)).as(first.out()).containsEntry("failed", 0L).containsEntry("skipped", 0L);
        assertThat(first.exit()).isEqualTo(2);
        Cli second = apply(manifest);
        assertThat(summary(second)).as(second.out()).containsEntry("failed", 0L);
        long stillChanging = summary(second).get("changed");
        // execs without guards run every time; nothing else may change on a second run
        assertThat(stillChanging).isEqualTo(unguardedExecs(manifest));
    }

    private static long unguardedExecs(Path manifest) {
        return manifest.getFileName().toString().equals("webapp.yaml") ? 1 : 0;
    }

    @Test
    void helloWritesTheGreetingWithFacts() throws IOException {
        apply(EXAMPLES.resolve("hello.yaml"), "--fact", "hostname=demo", "--fact", "os.family=suse", "--data", "greeting=Hi");
        assertThat(root.resolve("motd")).hasContent("Hi from demo (suse)");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(root.resolve("motd")))).isEqualTo("rw-r--r--");
    }

    @Test
    void webappRendersConfigPassesValuesAndReloadsOnlyOnChange() throws IOException {
        Path webapp = EXAMPLES.resolve("webapp.yaml");
        Files.writeString(root.resolve("stale.conf"), "old");
        Cli first = apply(webapp, "--fact", "os.family=redhat", "--data", "port=9090");
        assertThat(summary(first)).as(first.out()).containsEntry("failed", 0L);
        assertThat(root.resolve("conf/ports.conf")).hasContent("# managed by muster\nListen 9090\nWorkers 2\nServer httpd");
        assertThat(root.resolve("conf/banner.txt")).hasSameTextualContentAs(EXAMPLES.resolve("files/banner.txt"));
        assertThat(root.resolve("stale.conf")).doesNotExist();
        assertThat(Files.readString(root.resolve("conf/build.txt"))).matches("build \\d{8} for port 9090\n");
        assertThat(Files.readAllLines(root.resolve("reloads.log"))).hasSize(1);

        apply(webapp, "--fact", "os.family=redhat", "--data", "port=9090");
        assertThat(Files.readAllLines(root.resolve("reloads.log"))).as("no change, no reload").hasSize(1);

        Cli changed = apply(webapp, "--fact", "os.family=debian", "--data", "port=9090");
        assertThat(root.resolve("conf/ports.conf")).hasContent("# managed by muster\nListen 9090\nWorkers 2\nServer apache2");
        assertThat(Files.readAllLines(root.resolve("reloads.log"))).hasSize(2);
        assertThat(changed.out()).contains("\"id\": \"msg#debian-only\"");
    }

    /** Applies with a lasting prefix: the document kind remembers there what it set. */
    private Cli applyKeepingState(Path manifest, String... extra) {
        Object[] args = Stream.concat(Stream.of("apply", manifest, "--data", "root=" + root, "--prefix", root.resolve(".state"),
                "--output", "json"), Stream.of(extra)).toArray();
        return Cli.run(args);
    }

    @Test
    void documentKeepsWhatAnotherToolAddedAndReplacesWhatItHadSet() throws IOException {
        Path document = EXAMPLES.resolve("document.yaml");
        applyKeepingState(document);
        Path settings = root.resolve("settings.json");
        Files.writeString(settings, Files.readString(settings).replace("\"tls\": false", "\"tls\": false,\n    \"added\": true"));
        Cli changed = applyKeepingState(document, "--data", "port=9090");
        assertThat(summary(changed)).as(changed.out()).containsEntry("changed", 2L).containsEntry("failed", 0L);
        assertThat(Manifests.json(Files.readString(settings))).isEqualTo(Manifests.json("""
                {"server": {"port": 9090, "tls": false, "added": true}, "features": ["search", "export"]}"""));
        assertThat(root.resolve("app.yaml")).as("the port muster had added is replaced, not kept beside the new one").hasContent("""
                containers:
                  - name: web
                    image: nginx:1.25
                    ports:
                      - containerPort: 9090""");
    }

    @Test
    void composeAppliesItsChildWithItsDataAndReloadsOnlyWhenTheChildChanged() throws IOException {
        Path compose = EXAMPLES.resolve("compose.yaml");
        Cli first = apply(compose);
        assertThat(summary(first)).as(first.out()).containsEntry("failed", 0L);
        assertThat(root.resolve("shop/app.conf")).hasContent("name = shop\nport = 8081");
        assertThat(root.resolve("shop/LICENSE.txt")).hasSameTextualContentAs(EXAMPLES.resolve("lib/license.txt"));
        assertThat(Files.readString(root.resolve("summary.txt"))).matches("shop config [0-9a-f]{64} on \\w+\n");
        assertThat(first.out()).contains("\"manifest\": \"lib/app.yaml\"");
        apply(compose);
        assertThat(Files.readAllLines(root.resolve("deploys.log"))).as("unchanged child, no reload").hasSize(1);

        Cli check = Cli.run("check", compose, "--data", "root=" + root, "--tmp-prefix");
        assertThat(check.out()).contains("health check 'configured' ok", "health checks: ok 1, warning 0, critical 0, unknown 0");
        Files.writeString(root.resolve("shop/app.conf"), "broken");
        assertThat(Cli.run("check", compose, "--data", "root=" + root, "--tmp-prefix").exit()).isEqualTo(1);
        assertThat(root.resolve("shop/app.conf")).as("check changes nothing").hasContent("broken");
    }

    @Test
    void fleetGivesEachHostTheManifestsItsNameMatches() throws IOException {
        Path fleet = EXAMPLES.resolve("fleet/site.yaml");
        Cli web = apply(fleet, "--fact", "fqdn=web1.example.com");
        assertThat(summary(web)).as(web.out()).containsEntry("failed", 0L);
        assertThat(root.resolve("motd")).hasContent("web1.example.com is managed by muster");
        assertThat(root.resolve("web.conf")).as("web1's port, from the hierarchy").hasContent("listen 8081");
        assertThat(root.resolve("db.conf")).doesNotExist();

        apply(fleet, "--fact", "fqdn=db-2.example.com");
        assertThat(root.resolve("motd")).hasContent("db-2.example.com is managed by muster");
        assertThat(root.resolve("db.conf")).hasContent("max_connections = 100");

        Files.delete(root.resolve("db.conf"));
        Files.delete(root.resolve("web.conf"));
        Cli other = apply(fleet, "--fact", "fqdn=mail.example.com");
        assertThat(summary(other)).as("only the default: base").containsEntry("changed", 2L).containsEntry("failed", 0L);
        assertThat(root.resolve("motd")).hasContent("mail.example.com is managed by muster");
        assertThat(root.resolve("web.conf")).doesNotExist();
        assertThat(root.resolve("db.conf")).doesNotExist();
    }

    @Test
    void webappPlanShowsWhatDependsOnRunTimeValues() {
        Cli plan = Cli.run("plan", EXAMPLES.resolve("webapp.yaml"), "--data", "root=" + root, "--tmp-prefix");
        assertThat(plan.exit()).isEqualTo(2);
        assertThat(plan.out()).contains("file#" + root + "/conf/build.txt unresolvable",
                "1 resource(s) depend on effectful results and may change");
        assertThat(root.resolve("conf")).doesNotExist();
        assertThat(List.of(plan.out().split("\n"))).last().isEqualTo("1 resource(s) depend on effectful results and may change");
    }
}
