package io.muster.engine.resource.document;

import static org.assertj.core.api.Assertions.assertThat;

import io.muster.engine.util.Json;
import io.muster.engine.util.Maps;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;

/**
 * The merge's promises over random documents: maps nested a few levels, plain lists, lists of objects
 * keyed by {@code name} or {@code port} (sometimes with repeated keys, sometimes with items lacking one),
 * and numbers spelt several ways. Manifests use the managed field names only; other tools also use
 * foreign ones, which no manifest mentions.
 */
class ThreeWayMergePropertiesTest {
    private static final List<String> MANAGED = List.of("a", "b", "c", "name", "port");
    private static final List<String> FOREIGN = List.of("x", "y", "z");
    private static final List<String> ALL = List.of("a", "b", "c", "name", "port", "x", "y", "z");

    @Provide
    Arbitrary<Map<String, Object>> desired() {
        return document(MANAGED, 3);
    }

    @Provide
    Arbitrary<Map<String, Object>> observed() {
        return document(ALL, 3);
    }

    @Provide
    Arbitrary<List<Map<String, Object>>> desiredSequence() {
        return document(MANAGED, 3).list().ofMinSize(1).ofMaxSize(5);
    }

    @Provide
    Arbitrary<List<Map<String, Object>>> otherToolsEdits() {
        return document(FOREIGN, 2).list().ofSize(5);
    }

    @Property(tries = 500)
    void applyingTheSameDesiredTwiceChangesNothing(@ForAll("observed") Map<String, Object> observed,
                                                   @ForAll("desired") Map<String, Object> lastApplied,
                                                   @ForAll("desired") Map<String, Object> desired) {
        Map<String, Object> once = ThreeWayMerge.merge(observed, lastApplied, desired);
        Map<String, Object> twice = ThreeWayMerge.merge(once, desired, desired);
        assertThat(Json.pretty(twice)).isEqualTo(Json.pretty(once));
    }

    /** As the resource runs it: the file and last-applied are written out and read back between runs. */
    @Property(tries = 500)
    void aSecondRunThroughTheFileFindsNothingToChange(@ForAll("observed") Map<String, Object> observed,
                                                      @ForAll("desired") Map<String, Object> lastApplied,
                                                      @ForAll("desired") Map<String, Object> desired,
                                                      @ForAll DocumentFormat format) {
        Map<String, Object> written = reread(format, ThreeWayMerge.merge(observed, lastApplied, desired));
        Map<String, Object> remembered = reread(DocumentFormat.JSON, desired);
        assertThat(Values.same(ThreeWayMerge.merge(written, remembered, desired), written)).isTrue();
    }

    private static Map<String, Object> reread(DocumentFormat format, Map<String, Object> document) {
        return format.read(format.render(document).getBytes(StandardCharsets.UTF_8));
    }

    @Property(tries = 500)
    void fieldsNoManifestMentionsSurviveAnySequenceOfApplies(@ForAll("observed") Map<String, Object> initial,
                                                             @ForAll("desiredSequence") List<Map<String, Object>> manifests,
                                                             @ForAll("otherToolsEdits") List<Map<String, Object>> edits) {
        Map<String, Object> document = initial;
        Map<String, Object> lastApplied = null;
        for (int i = 0; i < manifests.size(); i++) {
            document = Maps.deepMerge(document, edits.get(i)); // another tool writes between runs
            List<Field> foreign = new ArrayList<>();
            foreignFields(document, List.of(), foreign);
            document = ThreeWayMerge.merge(document, lastApplied, manifests.get(i));
            lastApplied = manifests.get(i);
            for (Field field : foreign) {
                // a field inside a map the manifest replaced or removed goes with it; anywhere else it stays
                if (at(document, field.path().subList(0, field.path().size() - 1)) instanceof Map<?, ?> parent) {
                    String name = field.path().getLast();
                    assertThat(parent.containsKey(name)).as(String.join(".", field.path())).isTrue();
                    assertThat(Values.same(parent.get(name), field.value())).as(String.join(".", field.path())).isTrue();
                }
            }
        }
    }

    private record Field(List<String> path, Object value) {}

    /** Fields with foreign names, reached through maps only (a list item's identity is the merge's business). */
    private static void foreignFields(Map<?, ?> map, List<String> path, List<Field> out) {
        map.forEach((key, value) -> {
            List<String> here = new ArrayList<>(path);
            here.add((String) key);
            if (FOREIGN.contains(key)) out.add(new Field(here, value));
            else if (value instanceof Map<?, ?> inner) foreignFields(inner, here, out);
        });
    }

    /** The value at {@code path} through maps, or null. */
    private static Object at(Object document, List<String> path) {
        Object here = document;
        for (String key : path) {
            if (!(here instanceof Map<?, ?> map)) return null;
            here = map.get(key);
        }
        return here;
    }

    @Property(tries = 500)
    void everyValueTheManifestSetsIsInTheResult(@ForAll("observed") Map<String, Object> observed,
                                                @ForAll("desired") Map<String, Object> lastApplied,
                                                @ForAll("desired") Map<String, Object> desired) {
        assertContains(ThreeWayMerge.merge(observed, lastApplied, desired), desired, "");
    }

    private static void assertContains(Map<?, ?> result, Map<?, ?> desired, String where) {
        desired.forEach((key, want) -> {
            assertThat(result.containsKey(key)).as(where + key).isTrue();
            Object got = result.get(key);
            switch (want) {
                case Map<?, ?> map -> {
                    assertThat(got).as(where + key).isInstanceOf(Map.class);
                    assertContains((Map<?, ?>) got, map, where + key + ".");
                }
                case List<?> list -> assertThat(got).as(where + key).isInstanceOf(List.class);
                case null, default -> assertThat(Values.same(got, want)).as(where + key + ": " + got + " vs " + want).isTrue();
            }
        });
    }

    // --- generators

    private static Arbitrary<Map<String, Object>> document(List<String> keys, int depth) {
        return Arbitraries.maps(Arbitraries.of(keys), value(keys, depth - 1)).ofMaxSize(4).map(LinkedHashMap::new);
    }

    private static Arbitrary<Object> value(List<String> keys, int depth) {
        if (depth <= 0) return scalar();
        return Arbitraries.frequencyOf(
                Tuple.of(4, scalar()),
                Tuple.of(2, document(keys, depth).map(m -> m)),
                Tuple.of(1, scalar().list().ofMaxSize(3).map(l -> l)),
                Tuple.of(3, keyedItems(keys, depth).map(l -> l)));
    }

    /** Lists of objects by name or port, mostly with distinct keys; some items lack the key or repeat one. */
    private static Arbitrary<List<Object>> keyedItems(List<String> keys, int depth) {
        Arbitrary<String> key = Arbitraries.of("name", "name", "port", "other");
        return key.flatMap(k -> {
            Arbitrary<Object> id = k.equals("port") ? Arbitraries.of(80, 81L, 82.0, new BigDecimal("80.0")) : Arbitraries.of("n1", "n2", "n3");
            Arbitrary<Map<String, Object>> item = Combinators.combine(id, document(keys, depth))
                    .as((value, fields) -> {
                        Map<String, Object> out = new LinkedHashMap<>(fields);
                        if (!k.equals("other")) out.put(k, value);
                        return out;
                    });
            return item.list().ofMaxSize(3).map(ArrayList<Object>::new);
        });
    }

    private static Arbitrary<Object> scalar() {
        return Arbitraries.oneOf(
                Arbitraries.of(1, 2L, 1.0, 2.5, new BigDecimal("1.00"), new BigDecimal("2.50")),
                Arbitraries.of("p", "q", "1"),
                Arbitraries.of(true, false),
                Arbitraries.just(null));
    }
}
