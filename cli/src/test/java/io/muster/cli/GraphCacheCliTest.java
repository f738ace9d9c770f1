package io.muster.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.muster.engine.testing.Manifests;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The compiled-graph cache as a user meets it: {@code apply}, {@code plan} and {@code check} say in their JSON report
 * whether the graph came from the cache ({@code graph_cache}), a hit reports what a compile reports, {@code --no-cache}
 * and {@code --tmp-prefix} compile, and {@code --debug} says why a run missed.
 */
class GraphCacheCliTest {
    @TempDir
    Path dir;

    @Test
    void aSecondApplyOfAnUnchangedManifestIsAHitReportingWhatACompileReports() throws Exception {
        Path site = manifest("${ data.greeting }");
        Path prefix = dir.resolve("state");
        Cli first = Cli.run("plan", site, "--prefix", prefix, "--output", "json");
        Cli second = Cli.run("plan", site, "--prefix", prefix, "--output", "json");

        ReportSchema.assertValid(first.out());
        ReportSchema.assertValid(second.out());
        assertThat(Manifests.json(first.out())).containsEntry("graph_cache", "miss");
        assertThat(Manifests.json(second.out())).containsEntry("graph_cache", "hit");
        assertThat(comparable(second.out())).isEqualTo(comparable(first.out()));

        Cli applied = Cli.run("apply", site, "--prefix", prefix, "--output", "json");
        assertThat(Manifests.json(applied.out())).containsEntry("graph_cache", "hit");
        assertThat(applied.exit()).isZero();
        assertThat(dir.resolve("out/motd")).hasContent("hello");
        Cli check = Cli.run("check", site, "--prefix", prefix, "--output", "json");
        assertThat(Manifests.json(check.out())).containsEntry("graph_cache", "hit");
        assertThat(Manifests.json(Cli.run("apply", site, "--prefix", prefix, "--output", "json", "--no-cache").out()))
                .containsEntry("graph_cache", "off");
        assertThat(Manifests.json(Cli.run("apply", site, "--tmp-prefix", "--output", "json").out()))
                .containsEntry("graph_cache", "off");
    }

    /** The report without what differs from run to run: durations. */
    private static String comparable(String json) {
        return json.replaceAll("\"duration_ms\": \\d+", "").replaceAll("\"graph_cache\": \"\\w+\",?", "");
    }

    @Test
    void aChangedEnvironmentVariableThatATemplateReadsIsAMissThatDebugExplains() throws Exception {
        Path site = manifest("${ env.GREETING }");
        Path prefix = dir.resolve("state");
        assertThat(apply(site, prefix, "hello").err()).contains("compiled-graph cache: miss, no entry for");
        assertThat(apply(site, prefix, "hello").err()).contains("compiled-graph cache: hit for");
        MusterProcess changed = apply(site, prefix, "bonjour");
        assertThat(changed.err()).contains("compiled-graph cache: miss, env.GREETING changed since");
        assertThat(dir.resolve("out/motd")).hasContent("bonjour");
    }

    /**
     * A CCM manifest's {@code Environ} is the process's variables under the {@code .env} of the working directory:
     * the graph depends on the variables its templates read (every run of these has another marker variable) and on
     * that file, there or not.
     */
    @Test
    void aCcmManifestsCacheDependsOnTheVariablesItReadsAndOnTheDotEnvFile() throws Exception {
        Files.createDirectories(dir.resolve("out"));
        Path site = Files.writeString(dir.resolve("ccm.yaml"), String.join("\n", List.of(
                "ccm:",
                "  resources:",
                "    - file:",
                "        - " + dir + "/out/motd:",
                "            ensure: present",
                "            owner: root",
                "            group: root",
                "            mode: \"0644\"",
                "            content: \"{{ Environ.GREETING }}\"",
                "")));
        Path prefix = dir.resolve("state");
        assertThat(apply(site, prefix, "hello").err()).contains("compiled-graph cache: miss, no entry for");
        assertThat(apply(site, prefix, "hello").err()).contains("compiled-graph cache: hit for");
        assertThat(dir.resolve("out/motd")).hasContent("hello");

        Files.writeString(dir.resolve(".env"), "GREETING=salut\n");
        assertThat(apply(site, prefix, "hello").err()).contains("compiled-graph cache: miss, " + dir.resolve(".env") + " changed since");
        assertThat(dir.resolve("out/motd")).hasContent("salut");
        assertThat(apply(site, prefix, "hello").err()).contains("compiled-graph cache: hit for");
    }

    private MusterProcess apply(Path site, Path prefix, String greeting) throws Exception {
        MusterProcess muster = MusterProcess.start(dir, "apply-" + greeting, Map.of("GREETING", greeting),
                "apply", site, "--prefix", prefix, "--debug");
        assertThat(muster.awaitExit(Duration.ofSeconds(60))).as(muster.err()).isZero();
        return muster;
    }

    /** A file whose content is {@code template}; the manifest's data sets {@code greeting}. */
    private Path manifest(String template) throws Exception {
        Files.createDirectories(dir.resolve("out"));
        return Files.writeString(dir.resolve("site.yaml"), String.join("\n", List.of(
                "data: {greeting: hello}",
                "resources:",
                "  - file:",
                "      - " + dir + "/out/motd: {content: \"" + template + "\\n\"}",
                "")));
    }
}
