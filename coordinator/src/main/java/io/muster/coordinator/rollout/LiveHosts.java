package io.muster.coordinator.rollout;

import com.google.protobuf.InvalidProtocolBufferException;
import io.muster.agent.etcd.Etcd;
import io.muster.agent.etcd.EtcdUnreachableException;
import io.muster.agent.etcd.Keys;
import io.muster.coordinator.deploy.HostTarget;
import io.muster.coordinator.etcd.Pages;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/** The hosts a rollout is planned for: those whose agents are alive and published facts, with their facts. */
final class LiveHosts {
    private LiveHosts() {}

    static Map<String, Map<String, Object>> read(Etcd etcd) throws EtcdUnreachableException {
        Map<String, byte[]> facts = new HashMap<>();
        Set<String> alive = new HashSet<>();
        Pages.forEach(etcd, Keys.HOSTS, kv -> {
            Keys.HostKey key = Keys.parseHostKey(kv.getKey());
            if (key == null) return;
            if (key.what().equals("facts")) facts.put(key.host(), kv.getValue().getBytes());
            if (key.what().equals("alive")) alive.add(key.host());
        });
        Map<String, Map<String, Object>> live = new HashMap<>();
        for (String host : alive) {
            if (!facts.containsKey(host)) continue; // not compiled before it publishes facts: it joins a wave when it has
            try {
                live.put(host, HostTarget.of(host, facts.get(host)).facts());
            } catch (InvalidProtocolBufferException notFacts) {
                live.put(host, Map.of()); // its compile reports the error: in a wave, it fails there
            }
        }
        return live;
    }
}
