package io.muster.engine.resource;

import static org.assertj.core.api.Assertions.assertThatCode;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every installed kind reads only what its schema declares, with the declared types: a misread throws
 * {@link IllegalArgumentException} on the first read whether or not the property is set, so building each
 * kind once with every property set and once with only the required ones runs every read.
 */
class KindSchemaTest {
    private static final Path DIRECTORY = Path.of("/var/tmp/muster-manifests");

    static Stream<ResourceKind> kinds() {
        return Kinds.installed().names().stream().map(Kinds.installed()::get);
    }

    @ParameterizedTest
    @MethodSource("kinds")
    void readsEveryPropertyAsDeclared(ResourceKind kind) {
        Map<String, Object> all = new LinkedHashMap<>();
        for (Property p : kind.schema().properties().values()) all.put(p.name(), sample(p));
        assertThatCode(() -> kind.create(new Params("sample", all, DIRECTORY))).doesNotThrowAnyException();
    }

    @ParameterizedTest
    @MethodSource("kinds")
    void readsUnsetPropertiesWithFallbacks(ResourceKind kind) {
        Map<String, Object> required = new LinkedHashMap<>();
        for (Property p : kind.schema().properties().values()) {
            if (p.required()) required.put(p.name(), sample(p));
        }
        assertThatCode(() -> kind.create(new Params("sample", required, DIRECTORY))).doesNotThrowAnyException();
    }

    /** The first of a few plain values that the property accepts, as the compiler would pass it. */
    private static Object sample(Property p) {
        if (!p.allowed().isEmpty()) return p.coerce(p.allowed().getFirst());
        for (Object candidate : List.of("/var/tmp/muster-sample.json", "0644", true, 1, List.of(0), Map.of("KEY", "value"), "!")) {
            try {
                return p.coerce(candidate);
            } catch (IllegalArgumentException e) {
                // not this one
            }
        }
        throw new AssertionError("no sample value fits " + p);
    }
}
