package io.muster.coordinator.deploy;

import com.google.protobuf.InvalidProtocolBufferException;
import io.muster.agent.etcd.ContentStore;
import io.muster.agent.etcd.Etcd;
import io.muster.agent.etcd.EtcdUnreachableException;
import io.muster.agent.etcd.Keys;
import io.muster.coordinator.etcd.Pages;
import io.muster.engine.codec.InvalidGraphException;
import io.muster.engine.codec.PlainCodec;
import io.muster.engine.compile.CompileOptions;
import io.muster.engine.resource.Kinds;
import io.muster.proto.fleet.Facts;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A host a deploy is compiled for: its name and the facts its agent published. What it is compiled with is
 * here alone ({@link #options()}), for the coordinator's compiles and the deploy's validation alike.
 *
 * @param host its name; null for this host, named as {@code muster validate} names it (its fqdn fact)
 */
public record HostTarget(String host, Map<String, Object> facts) {

    /** The facts as stored in {@code hosts/<host>/facts}. */
    public static HostTarget of(String host, byte[] facts) throws InvalidProtocolBufferException {
        try {
            return new HostTarget(host, PlainCodec.decodeMap(Facts.parseFrom(facts).getFacts(), host + "'s facts"));
        } catch (InvalidGraphException e) {
            throw new InvalidProtocolBufferException(e.getMessage());
        }
    }

    /** This host, its facts gathered as {@code muster validate} gathers them. */
    public static HostTarget local() {
        return new HostTarget(null, io.muster.engine.facts.Facts.of(Map.of()));
    }

    /**
     * Its name (which a {@code nodes:} section matches), its facts, and no environment: the coordinator's own
     * would leak into every graph.
     */
    public CompileOptions options() {
        if (host == null) return new CompileOptions(facts, Map.of(), Map.of());
        return new CompileOptions(host, facts, Map.of(), Map.of(), CompileOptions.DEFAULT_MAX_APPLY_DEPTH, Kinds.installed());
    }

    /**
     * Live hosts (alive key present) with distinct facts, at most {@code max}, by name: enough to tell a
     * manifest that compiles nowhere from one that fails on some hosts only. The listing stops at the host that
     * makes {@code max}: a host's keys are listed together, its {@code alive} before its {@code facts}, so whether it
     * lives is known when its facts come.
     */
    public static List<HostTarget> live(Etcd etcd, int max) throws EtcdUnreachableException {
        List<HostTarget> targets = new ArrayList<>();
        Set<String> alive = new HashSet<>();
        Set<String> seen = new HashSet<>();
        if (max < 1) return targets;
        Pages.forEachWhile(etcd, Keys.HOSTS, kv -> {
            Keys.HostKey key = Keys.parseHostKey(kv.getKey());
            if (key == null) return true;
            if (key.what().equals("alive")) alive.add(key.host());
            byte[] bytes = kv.getValue().getBytes();
            if (key.what().equals("facts") && alive.contains(key.host()) && seen.add(ContentStore.sha256(bytes))) {
                try {
                    targets.add(of(key.host(), bytes));
                } catch (InvalidProtocolBufferException notFacts) {
                    // the coordinator reports it for that host
                }
            }
            return targets.size() < max;
        });
        return targets;
    }
}
