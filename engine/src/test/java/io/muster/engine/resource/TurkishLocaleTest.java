package io.muster.engine.resource;

import static io.muster.engine.testing.Manifests.resource;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.muster.engine.manifest.ManifestException;
import io.muster.engine.report.Report;
import io.muster.engine.report.Status;
import io.muster.engine.testing.Manifests;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Under a Turkish locale "i".toUpperCase() is "İ" and "I".toLowerCase() is "ı": every word the engine
 * case-folds (enum values, metaparams, suggestions, messages) must read the same as in English.
 */
class TurkishLocaleTest {
    @TempDir
    Path dir;

    private Locale before;

    @BeforeEach
    void turkish() {
        before = Locale.getDefault();
        Locale.setDefault(Locale.forLanguageTag("tr-TR"));
    }

    @AfterEach
    void restore() {
        Locale.setDefault(before);
    }

    @Test
    void enumPropertiesAndMetaparamsReadTheSame() throws Exception {
        Report report = new Manifests(dir).apply("""
                resources:
                  - file:
                      - ROOT/etc: {ensure: directory}
                      - ROOT/etc/motd: {ensure: present, content: "hi\\n", require: "file#ROOT/etc"}
                      - ROOT/gone: {ensure: absent}
                  - document:
                      - ROOT/etc/app.conf: {ensure: present, format: json, content: {debug: true}, require: "file#ROOT/etc"}
                  - msg:
                      - hello: {message: hi, level: info}
                      - careful: {message: careful, level: warn}
                  - noop:
                      - limited: {meta: {limit: INF}}
                """);
        assertThat(report.resources()).allSatisfy(r -> assertThat(r.error()).as(r.id()).isNull());
        assertThat(resource(report, "file#" + dir.resolve("etc")).status()).isEqualTo(Status.CHANGED);
        assertThat(dir.resolve("etc")).isDirectory();
        assertThat(dir.resolve("etc/motd")).hasContent("hi");
        assertThat(Files.readString(dir.resolve("etc/app.conf"))).contains("\"debug\": true");
    }

    @Test
    void messagesFoldCaseTheSame() {
        assertThatThrownBy(() -> new Manifests(dir).compile("""
                resources:
                  - file:
                      - ROOT/a: {ensure: DIRECT}
                      - ROOT/b: {ensure: directory, content: x}
                """))
                .isInstanceOf(ManifestException.class)
                .hasMessageContaining("ensure: expected one of present, absent, directory, link, got 'DIRECT' (did you mean 'directory'?)")
                .hasMessageContaining("content: content requires ensure: present, not directory");
    }
}
