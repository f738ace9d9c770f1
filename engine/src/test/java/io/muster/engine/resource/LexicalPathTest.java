package io.muster.engine.resource;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

class LexicalPathTest {
    /** Paths made of the pieces that need collapsing: empty, '.' and '..' segments, slashes at either end. */
    @Provide
    Arbitrary<String> paths() {
        return Arbitraries.of("", ".", "..", "a", "bc", ".d", "e.", "...").list().ofMaxSize(6)
                .flatMap(segments -> Arbitraries.of("", "/").tuple2().map(ends -> ends.get1() + String.join("/", segments) + ends.get2()));
    }

    @Property(tries = 2000)
    void aPathIsCollapsedAsTheFileSystemApiCollapsesIt(@ForAll("paths") String path) {
        assertThat(LexicalPath.normalize(path)).isEqualTo(Path.of(path).normalize().toString());
    }
}
