package io.muster.engine.template;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** A plain dotted path reads, fails and is listed exactly as JEXL would have it, without JEXL. */
class PlainPathTest {
    private final Scope scope;

    PlainPathTest() {
        Map<String, Object> data = new HashMap<>();
        data.put("root", "/srv/www");
        data.put("port", 8080);
        data.put("ratio", 0.5);
        data.put("on", true);
        data.put("names", List.of("a", "b"));
        data.put("nothing", null);
        data.put("nested", Map.of("key", "value", "deeper", Map.of("x", 1)));
        data.put("size", 3);
        data.put("empty", "");
        scope = new Scope(data, Map.of("os", Map.of("family", "debian"), "hostname", "web1"), Map.of("HOME", "/root"),
                Path.of("/tmp"), Lookup.NONE);
    }

    @Test
    void readsAndFailsAsJexlDoes() {
        for (String source : List.of(" data.root ", "data.port", "data.ratio", "data.on", "data.names", "data.nested",
                "data.nested.key", "data.nested.deeper", "data.nested.deeper.x", "facts.os.family", "facts.hostname", "env.HOME",
                "data.prot", "data.nested.kye", "data.nested.deeper.y", "facts.os.release", "env.NOPE", "data.nothing",
                "data.nothing.x", "data.root.x", "data.names.first", "data.port.x")) {
            assertThat(outcome(() -> Template.parse("${" + source + "}").render(scope)))
                    .as(source).isEqualTo(outcome(() -> Expressions.evaluate(Expressions.parse(source), scope)));
        }
    }

    @Test
    void takesOnlyPlainPathsOfTheThreeRoots() {
        for (String source : List.of("data.root", " facts.os.family ", "env.HOME", "data.a_b.C9")) {
            assertThat(PlainPath.of(source)).as(source).isNotNull();
        }
        for (String source : List.of("data", "data.", "data.size", "data.empty", "data.nested.not", "data['x']", "data.port + 1",
                "nested.key", "data.names.0", "data .root", "file('x')", "data.root ?: 'x'", "data.1a")) {
            assertThat(PlainPath.of(source)).as(source).isNull();
        }
    }

    @Test
    void namesWhatItReadsAsJexlDoes() {
        for (String source : List.of("data.root", "facts.os.family", "facts.hostname", " env.HOME ")) {
            assertThat(Set.of(PlainPath.of(source).path())).as(source).isEqualTo(Expressions.variables(source));
        }
        TemplateReads reads = new TemplateReads();
        reads.addValue("${ facts.os.family } {{ env.HOME }} ${ data.root }");
        assertThat(reads.facts()).containsExactly("os");
        assertThat(reads.env()).containsExactly("HOME");
        assertThat(reads.allFacts()).isFalse();
        assertThat(reads.computedEnv()).isFalse();
    }

    /** A value, or the exception's class and message. */
    private static Object outcome(java.util.function.Supplier<Object> evaluation) {
        try {
            return evaluation.get();
        } catch (RuntimeException e) {
            return e.getClass().getName() + ": " + e.getMessage();
        }
    }
}
