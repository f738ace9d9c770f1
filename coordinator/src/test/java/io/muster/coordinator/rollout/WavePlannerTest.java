package io.muster.coordinator.rollout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.muster.proto.fleet.Wave;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class WavePlannerTest {
    private static Map<String, Map<String, Object>> hosts(int n) {
        Map<String, Map<String, Object>> hosts = new TreeMap<>();
        for (int i = n; i >= 1; i--) hosts.put(String.format("h%02d", i), Map.of("rack", "r" + (i % 3), "slot", i % 4));
        return hosts;
    }

    private static List<List<String>> plan(int canaries, String batch, String maxFailures, String orderBy, Map<String, Map<String, Object>> hosts) {
        RolloutSpec spec = new RolloutSpec(canaries, batch == null ? null : Share.parse(batch), Share.parse(maxFailures), Duration.ZERO, orderBy);
        return WavePlanner.plan(spec, hosts).stream().map(w -> List.copyOf(w.getHostsList())).toList();
    }

    @Test
    void canariesComeFirstThenWavesOfTheBatchByName() {
        assertThat(plan(1, "2", "0", null, hosts(6))).containsExactly(List.of("h01"), List.of("h02", "h03"), List.of("h04", "h05"), List.of("h06"));
        assertThat(plan(2, null, "0", null, hosts(5))).containsExactly(List.of("h01", "h02"), List.of("h03", "h04", "h05"));
        assertThat(plan(0, "10%", "0", null, hosts(25))).hasSize(9).allMatch(w -> w.size() <= 3); // 10% of 25, rounded up
        assertThat(plan(3, "1", "0", null, hosts(2))).containsExactly(List.of("h01", "h02"));
        assertThat(plan(1, "10%", "0", null, Map.of())).isEmpty();
    }

    @Test
    void orderByAFactGroupsHostsByItsValueNumbersAsNumbersHostsWithoutItLast() {
        Map<String, Map<String, Object>> hosts = hosts(6);
        assertThat(plan(0, "2", "0", "facts.rack", hosts)).containsExactly(List.of("h03", "h06"), List.of("h01", "h04"), List.of("h02", "h05"));
        hosts.put("h00", Map.of());
        hosts.put("h99", Map.of("slot", 10));
        assertThat(plan(0, "100%", "0", "facts.slot", hosts).getFirst())
                .containsExactly("h04", "h01", "h05", "h02", "h06", "h03", "h99", "h00");
    }

    @Test
    void eachWaveMayHaveTheFailuresAllowedOfItsSize() {
        RolloutSpec spec = new RolloutSpec(1, Share.parse("4"), Share.parse("50%"), Duration.ZERO, null);
        assertThat(WavePlanner.plan(spec, hosts(7))).extracting(Wave::getMaxFailures).containsExactly(0, 2, 1);
        assertThat(WavePlanner.plan(spec, hosts(7)).getFirst().getCanary()).isTrue();
    }

    @Test
    void badSharesAndFactsAreRefusedSayingWhatWasExpected() {
        assertThatThrownBy(() -> Share.parse("x%")).hasMessage("expected a number of hosts N or a percentage P%, got 'x%'");
        assertThatThrownBy(() -> Share.parse("120%")).hasMessageContaining("0 to 100");
        assertThatThrownBy(() -> new RolloutSpec(0, Share.parse("0"), Share.parse("0"), Duration.ZERO, null)).hasMessageContaining("--batch");
        assertThatThrownBy(() -> new RolloutSpec(0, null, Share.parse("0"), Duration.ZERO, "rack")).hasMessageContaining("facts.NAME");
    }
}
