package io.muster.engine.compile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.muster.engine.codec.GraphCodec;
import io.muster.engine.manifest.ManifestException;
import io.muster.engine.manifest.ParsedManifests;
import io.muster.engine.resource.Kinds;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ParsedManifestsTest {
    @TempDir
    Path bundle;

    @Test
    void hostsCompiledFromOneReadingGetTheGraphsTheirOwnReadingsGive() throws Exception {
        Files.writeString(bundle.resolve("site.yaml"), """
                nodes:
                  "web*": [roles/web.yaml]
                resources:
                  - file:
                      - ${ facts.root }/motd: {content: "hello\\n"}
                """);
        Files.createDirectories(bundle.resolve("roles"));
        Files.writeString(bundle.resolve("roles/web.yaml"), """
                resources:
                  - file:
                      - ${ facts.root }/www: {ensure: directory}
                """);
        ParsedManifests parsed = new ParsedManifests();
        for (String host : new String[] {"web1", "db1", "web2"}) {
            CompileOptions options = options(host);
            String shared = sha(new ManifestCompiler(options.withManifests(parsed)).compile(bundle.resolve("site.yaml")));
            String own = sha(new ManifestCompiler(options).compile(bundle.resolve("site.yaml")));
            assertThat(shared).as(host).isEqualTo(own);
        }
    }

    @Test
    void aManifestThatDoesNotReadIsReadAgainByTheNextCompile() throws Exception {
        Path site = bundle.resolve("site.yaml");
        Files.writeString(site, "resources: [\n");
        ParsedManifests parsed = new ParsedManifests();
        assertThatThrownBy(() -> new ManifestCompiler(options("h1").withManifests(parsed)).compile(site))
                .isInstanceOf(ManifestException.class).hasMessageContaining("site.yaml:");
        Files.writeString(site, "resources: []\n");
        assertThat(new ManifestCompiler(options("h1").withManifests(parsed)).compile(site).vertices()).isEmpty();
    }

    private CompileOptions options(String host) {
        return new CompileOptions(host, Map.of("root", "/srv/" + host), Map.of(), Map.of(), CompileOptions.DEFAULT_MAX_APPLY_DEPTH,
                Kinds.installed());
    }

    private static String sha(io.muster.engine.graph.Graph graph) {
        return GraphCodec.encode(graph).sha256();
    }
}
