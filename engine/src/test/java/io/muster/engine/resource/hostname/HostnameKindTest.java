package io.muster.engine.resource.hostname;

import static org.assertj.core.api.Assertions.assertThat;

import io.muster.engine.resource.Change;
import io.muster.engine.resource.Params;
import io.muster.engine.resource.Resource;
import io.muster.engine.resource.Result;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code hostname} sets the static, transient and pretty names where hostnamed keeps them (here: files of the test's). */
class HostnameKindTest {
    @TempDir
    Path dir;

    private Resource resource(HostNames files, Map<String, Object> values) throws Exception {
        return new HostnameKind(files).create(new Params("h", values, dir));
    }

    @Test
    void eachNameIsComparedAndWrittenOnlyWhenApplying() throws Exception {
        Files.writeString(dir.resolve("hostname"), "old\n");
        Files.writeString(dir.resolve("kernel"), "old");
        Files.writeString(dir.resolve("machine-info"), "CHASSIS=vm\n");
        HostNames files = new HostNames(dir.resolve("hostname"), dir.resolve("kernel"), dir.resolve("machine-info"));
        Resource web = resource(files, Map.of("hostname", "web1.example.com", "pretty_hostname", "Web \"one\""));

        Result planned = web.checkApply(null, false);
        assertThat(planned.changes()).extracting(Change::describe).containsExactly(
                "pretty_hostname absent -> Web \"one\"", "static_hostname old -> web1.example.com", "transient_hostname old -> web1.example.com");
        assertThat(dir.resolve("hostname")).hasContent("old");

        assertThat(web.checkApply(null, true).isChanged()).isTrue();
        assertThat(dir.resolve("hostname")).hasContent("web1.example.com");
        assertThat(dir.resolve("kernel")).hasContent("web1.example.com");
        assertThat(dir.resolve("machine-info")).hasContent("CHASSIS=vm\nPRETTY_HOSTNAME=\"Web \\\"one\\\"\"");
        assertThat(web.checkApply(null, true).isChanged()).isFalse();
    }

    @Test
    void aNameThatIsNoHostNameIsRefused() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> new HostnameKind().schema().property("static_hostname").coerce("bad name"))
                .hasMessage("static_hostname: 'bad name' is not a host name (letters, digits, '-' and '.', at most 64)");
    }
}
