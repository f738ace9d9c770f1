package io.muster.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.muster.engine.testing.Manifests;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * muster in a JVM whose default locale is Turkish, where "i".toUpperCase() is "İ" and "I".toLowerCase() is
 * "ı": a manifest of enum properties applies as in English, and mistakes are explained the same way.
 */
class TurkishLocaleCliTest {
    private static final List<String> TURKISH = List.of("-Duser.language=tr", "-Duser.country=TR");
    private static final Duration PATIENCE = Duration.ofSeconds(60);

    @TempDir
    Path dir;

    private MusterProcess muster(String name, Object... args) throws Exception {
        return MusterProcess.start(dir, name, TURKISH, Map.of(), args);
    }

    @Test
    void aManifestOfEnumPropertiesAppliesAndThenIsStable() throws Exception {
        Path site = new Manifests(dir).write("site.yaml", """
                resources:
                  - file:
                      - ROOT/etc: {ensure: directory}
                      - ROOT/etc/motd: {ensure: present, content: "hi\\n", mode: "0644", require: "file#ROOT/etc"}
                  - document:
                      - ROOT/etc/app.conf: {format: json, content: {debug: true}, require: "file#ROOT/etc"}
                  - msg:
                      - hello: {message: merhaba, level: info}
                  - noop:
                      - limited: {meta: {limit: INF}}
                """);
        try (MusterProcess validate = muster("validate", "validate", site)) {
            assertThat(validate.awaitExit(PATIENCE)).as(validate.err()).isZero();
            assertThat(validate.out()).contains(": ok, 5 resources, 2 edges");
        }
        try (MusterProcess first = muster("first", "apply", site, "--tmp-prefix", "--detailed-exitcodes")) {
            assertThat(first.awaitExit(PATIENCE)).as(first.out() + first.err()).isEqualTo(2);
            assertThat(first.out()).contains("file#" + dir.resolve("etc") + " changed ensure");
        }
        assertThat(dir.resolve("etc")).isDirectory();
        assertThat(dir.resolve("etc/motd")).hasContent("hi");
        assertThat(dir.resolve("etc/app.conf")).content().contains("\"debug\": true");
        try (MusterProcess second = muster("second", "apply", site, "--tmp-prefix", "--detailed-exitcodes")) {
            assertThat(second.awaitExit(PATIENCE)).as(second.out() + second.err()).isZero();
        }
    }

    @Test
    void mistakesAreExplainedAsInEnglish() throws Exception {
        Path site = new Manifests(dir).write("site.yaml", """
                resources:
                  - file:
                      - ROOT/a: {ensure: DIRECT}
                      - ROOT/b: {ensure: directory, content: x}
                """);
        try (MusterProcess validate = muster("validate", "validate", site)) {
            assertThat(validate.awaitExit(PATIENCE)).isNotZero();
            assertThat(validate.err())
                    .contains("got 'DIRECT' (did you mean 'directory'?)")
                    .contains("content requires ensure: present, not directory");
        }
    }
}
