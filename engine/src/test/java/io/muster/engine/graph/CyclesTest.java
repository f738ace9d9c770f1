package io.muster.engine.graph;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.IntStream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

class CyclesTest {
    private static final List<String> IDS = IntStream.range(0, 8).mapToObj(i -> "v" + i).toList();

    @Provide
    Arbitrary<List<Edge>> edges() {
        Arbitrary<String> id = Arbitraries.of(IDS);
        return id.tuple2().map(t -> new Edge(t.get1(), t.get2(), EdgeReason.REQUIRE)).list().ofMaxSize(12);
    }

    @Property(tries = 3000)
    void aCycleIsFoundExactlyWhenOneExistsAndEachStepOfItIsAnEdge(@ForAll("edges") List<Edge> edges) {
        List<String> cycle = Cycles.find(IDS, edges);

        assertThat(cycle.isEmpty()).isEqualTo(acyclic(edges));
        if (!cycle.isEmpty()) {
            assertThat(cycle.getFirst()).isEqualTo(cycle.getLast());
            Set<String> pairs = new HashSet<>();
            for (Edge e : edges) pairs.add(e.from() + ">" + e.to());
            for (int i = 0; i + 1 < cycle.size(); i++) assertThat(pairs).contains(cycle.get(i) + ">" + cycle.get(i + 1));
        }
    }

    /** Kahn's algorithm: acyclic when every vertex can be taken once nothing leads to it any more. */
    private static boolean acyclic(List<Edge> edges) {
        Map<String, Integer> into = new HashMap<>();
        for (String id : IDS) into.put(id, 0);
        for (Edge e : edges) into.merge(e.to(), 1, Integer::sum);
        ArrayDeque<String> free = new ArrayDeque<>();
        into.forEach((id, n) -> {
            if (n == 0) free.add(id);
        });
        int taken = 0;
        while (!free.isEmpty()) {
            String at = free.poll();
            taken++;
            for (Edge e : edges) if (e.from().equals(at) && into.merge(e.to(), -1, Integer::sum) == 0) free.add(e.to());
        }
        return taken == IDS.size();
    }
}
