package io.muster.engine.compile;

import static org.assertj.core.api.Assertions.assertThat;

import io.muster.engine.graph.EdgeReason;
import io.muster.engine.graph.Graph;
import io.muster.engine.testing.Manifests;
import java.nio.file.Path;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.io.TempDir;

/** Compiling again in the same process (tests, and later the agent) must not reuse state from before. */
class RepeatedCompileTest {
    @TempDir
    Path dir;

    @RepeatedTest(3)
    void everyCompilationFindsItsOwnLookupEdges() throws Exception {
        Graph g = new Manifests(dir).compile("""
                resources:
                  - exec: [{build-id: {command: ["date", "+%Y%m%d"]}}]
                  - file: [{ROOT/build.txt: {content: "build {{ lookup('exec#build-id.stdout') }} for ${ data.port }\\n"}}]
                data: {port: 1}
                """);
        assertThat(g.edges()).anySatisfy(e -> assertThat(e.reason()).isEqualTo(EdgeReason.LOOKUP));
    }
}
