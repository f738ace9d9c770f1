package io.muster.coordinator.rollout;

import io.muster.proto.fleet.Wave;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * Cuts the hosts a deploy goes to into waves: in a stable order (by name, or by a fact and then by name, so hosts
 * sharing a rack come together), the first {@code canaries} in a wave of their own, the others in waves of the
 * batch size (a percentage is of all the hosts).
 */
public final class WavePlanner {
    private WavePlanner() {}

    /** @param hosts each host's facts */
    public static List<Wave> plan(RolloutSpec spec, Map<String, Map<String, Object>> hosts) {
        List<String> order = order(hosts, spec.orderBy());
        List<Wave> waves = new ArrayList<>();
        int canaries = Math.min(spec.canaries(), order.size());
        if (canaries > 0) waves.add(Wave.newBuilder().setCanary(true).addAllHosts(order.subList(0, canaries)).build());
        int batch = Math.max(1, spec.batch() == null ? order.size() - canaries : spec.batch().roundedUp(order.size()));
        for (int from = canaries; from < order.size(); from += batch) {
            List<String> wave = order.subList(from, Math.min(order.size(), from + batch));
            waves.add(Wave.newBuilder().addAllHosts(wave).setMaxFailures(spec.maxFailures().roundedDown(wave.size())).build());
        }
        return waves;
    }

    /** The hosts by {@code orderBy}'s value (numbers as numbers; hosts without it last), then by name. */
    static List<String> order(Map<String, Map<String, Object>> hosts, String orderBy) {
        Comparator<String> byName = Comparator.naturalOrder();
        if (orderBy == null) return hosts.keySet().stream().sorted(byName).toList();
        String[] path = orderBy.substring(RolloutSpec.FACTS.length()).split("\\.");
        Comparator<String> byFact = Comparator.comparing(host -> fact(hosts.get(host), path), WavePlanner::compareValues);
        return hosts.keySet().stream().sorted(byFact.thenComparing(byName)).toList();
    }

    private static Object fact(Map<String, Object> facts, String[] path) {
        Object at = facts;
        for (String name : path) {
            if (!(at instanceof Map<?, ?> map)) return null;
            at = map.get(name);
        }
        return at;
    }

    private static int compareValues(Object a, Object b) {
        if (a == null || b == null) return a == null ? (b == null ? 0 : 1) : -1;
        if (a instanceof Number x && b instanceof Number y) return Double.compare(x.doubleValue(), y.doubleValue());
        return String.valueOf(a).compareTo(String.valueOf(b));
    }
}
