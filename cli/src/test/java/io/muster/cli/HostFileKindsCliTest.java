package io.muster.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.muster.engine.testing.Manifests;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code line}, {@code archive}, and {@code file}'s links and trees, end to end through the command: plan, apply, apply again. */
class HostFileKindsCliTest {
    @TempDir
    Path dir;

    @Test
    void planApplyAndApplyAgain() throws Exception {
        Files.createDirectories(dir.resolve("files/conf.d"));
        Files.writeString(dir.resolve("files/conf.d/app.conf"), "port=80\n");
        Files.createDirectories(dir.resolve("release/app-2.0"));
        Files.writeString(dir.resolve("release/app-2.0/VERSION"), "2.0\n");
        Process tar = new ProcessBuilder("tar", "czf", "../app-2.0.tar.gz", "app-2.0").directory(dir.resolve("release").toFile())
                .redirectErrorStream(true).start();
        assertThat(tar.waitFor(60, TimeUnit.SECONDS) && tar.exitValue() == 0)
                .as(new String(tar.getInputStream().readAllBytes(), StandardCharsets.UTF_8)).isTrue();
        Files.writeString(dir.resolve("hosts"), "127.0.0.1 localhost\n");
        Path site = new Manifests(dir).write("site.yaml", """
                resources:
                  - file:
                      - ROOT/etc: {source: files, recurse: true, purge: true}
                      - ROOT/opt: {ensure: directory}
                      - ROOT/opt/current: {ensure: link, target: app-2.0}
                  - archive:
                      - ROOT/opt: {source: app-2.0.tar.gz, creates: ROOT/opt/app-2.0/VERSION}
                  - line:
                      - loghost: {path: ROOT/hosts, line: "10.0.0.5 loghost"}
                """);

        Cli plan = Cli.run("plan", site, "--tmp-prefix");
        assertThat(plan.out()).contains("+ conf.d/app.conf").contains("+10.0.0.5 loghost").contains("extracted absent -> ")
                .contains("ensure absent -> link");
        assertThat(dir.resolve("etc")).doesNotExist();

        Cli apply = Cli.run("apply", site, "--tmp-prefix", "--detailed-exitcodes");
        assertThat(apply.exit()).as(apply.out() + apply.err()).isEqualTo(2);
        assertThat(dir.resolve("etc/conf.d/app.conf")).hasContent("port=80");
        assertThat(dir.resolve("opt/current/VERSION")).hasContent("2.0");
        assertThat(dir.resolve("hosts")).hasContent("127.0.0.1 localhost\n10.0.0.5 loghost");

        Files.writeString(dir.resolve("etc/stray"), "x");
        Cli again = Cli.run("apply", site, "--tmp-prefix", "--detailed-exitcodes");
        assertThat(again.exit()).as(again.out()).isEqualTo(2);
        assertThat(again.out()).containsPattern("(?m)^file#" + dir + "/etc changed tree ");
        assertThat(dir.resolve("etc/stray")).doesNotExist();
        assertThat(Cli.run("apply", site, "--tmp-prefix", "--detailed-exitcodes").exit()).isZero();
    }
}
