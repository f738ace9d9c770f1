package io.muster.coordinator;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.options.PutOption;
import io.etcd.jetcd.KeyValue;
import io.muster.agent.etcd.ContentStore;
import io.muster.agent.etcd.Etcd;
import io.muster.agent.etcd.EtcdOptions;
import io.muster.agent.etcd.EtcdUnreachableException;
import io.muster.agent.etcd.Keys;
import io.muster.agent.testing.LocalEtcd;
import io.muster.coordinator.deploy.BundleReader;
import io.muster.coordinator.deploy.Deployer;
import io.muster.engine.graph.GraphFormat;
import io.muster.proto.fleet.Alive;
import io.muster.proto.fleet.Facts;
import io.muster.proto.fleet.GraphPointer;
import io.muster.proto.value.Entry;
import io.muster.proto.value.Value;
import io.muster.proto.value.ValueMap;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/** A fleet in one test's namespace: hosts registered as agents register, deploys, and a look at what was published. */
public final class TestFleet implements AutoCloseable {
    /**
     * Until GraphCodec: the graph's JSON (ids, kinds, files) stands for its encoding; deterministic and with
     * manifest paths relative to the bundle, as the codec's are.
     */
    public static final GraphEncoder ENCODER = graph -> {
        String json = GraphFormat.json(graph).replaceAll("\"/[^\"]*/trees/[0-9a-f]{64}/", "\"");
        byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
        return new GraphEncoder.Encoded(bytes, ContentStore.sha256(bytes));
    };

    public final EtcdOptions options;
    public final Etcd etcd;
    private final Path dir;
    private int bundles;

    public TestFleet(LocalEtcd local, String test, Path dir) throws EtcdUnreachableException {
        this.options = EtcdOptions.of(local.endpoint(), LocalEtcd.uniqueNamespace(test), Duration.ofSeconds(5));
        this.etcd = Etcd.connect(options);
        this.dir = dir;
    }

    /** Registers {@code host} as its agent would: its facts, and its alive key bound to a lease (longer than a test). */
    public void register(String host, Map<String, String> facts) throws EtcdUnreachableException {
        publishFacts(host, facts);
        long lease = etcd.await(etcd.jetcd().getLeaseClient().grant(600)).getID();
        etcd.await(etcd.kv().put(Keys.alive(host), ByteSequence.from(Alive.newBuilder().setVersion("test").build().toByteArray()),
                PutOption.builder().withLeaseId(lease).build()));
    }

    public void publishFacts(String host, Map<String, String> facts) throws EtcdUnreachableException {
        ValueMap.Builder map = ValueMap.newBuilder();
        facts.forEach((k, v) -> map.addEntries(Entry.newBuilder().setKey(k).setValue(Value.newBuilder().setText(v))));
        etcd.await(etcd.kv().put(Keys.facts(host), ByteSequence.from(Facts.newBuilder().setFacts(map).build().toByteArray())));
    }

    /** Deploys a bundle whose site.yaml is {@code site}; returns its id. */
    public long deploy(String site) throws Exception {
        return deploy(Map.of("site.yaml", site));
    }

    /** Deploys a bundle of {@code files} (path → content; site.yaml the root manifest); returns its id. */
    public long deploy(Map<String, String> files) throws Exception {
        return deploy(files, Deployer.Claim.NONE);
    }

    /** Deploys a bundle whose site.yaml is {@code site}, writing what {@code claim} adds (a rollout); returns its id. */
    public long deploy(String site, Deployer.Claim claim) throws Exception {
        return deploy(Map.of("site.yaml", site), claim);
    }

    private long deploy(Map<String, String> files, Deployer.Claim claim) throws Exception {
        Path bundle = Files.createDirectories(dir.resolve("bundle-" + ++bundles));
        for (Map.Entry<String, String> file : files.entrySet()) {
            Path path = bundle.resolve(file.getKey());
            Files.createDirectories(path.getParent());
            Files.writeString(path, file.getValue());
        }
        return new Deployer(etcd, Clock.systemUTC()).publish(new BundleReader(BundleReader.DEFAULT_MAX_BYTES, w -> {}).read(bundle), "test", "t@h", claim).id();
    }

    public Optional<KeyValue> pointerKey(String host) throws EtcdUnreachableException {
        return etcd.await(etcd.kv().get(Keys.graphPointer(host))).getKvs().stream().findFirst();
    }

    public GraphPointer pointer(String host) throws Exception {
        Optional<KeyValue> kv = pointerKey(host);
        return kv.isEmpty() ? null : GraphPointer.parseFrom(kv.get().getValue().getBytes());
    }

    /** A coordinator on a client of its own, as another process would have; lease TTL 2 s. */
    public Running coordinator(String name) throws Exception {
        return coordinator(name, Duration.ofSeconds(2), Duration.ofMinutes(10));
    }

    /** As {@link #coordinator(String)}, with a lease of {@code leaseTtl}, compacting etcd's history every {@code compactEvery}. */
    public Running coordinator(String name, Duration leaseTtl, Duration compactEvery) throws Exception {
        Etcd own = Etcd.connect(options);
        CoordinatorOptions coordinatorOptions = new CoordinatorOptions(name, leaseTtl, 2, dir.resolve("state-" + name), compactEvery);
        return new Running(new Coordinator(own, coordinatorOptions, ENCODER).start(), own);
    }

    /** A running coordinator and its client. */
    public record Running(Coordinator coordinator, Etcd client) implements AutoCloseable {
        public boolean leading() {
            return coordinator.leading();
        }

        /** As kill -9 would: its client goes without a word, so its lease is left to expire. */
        public void crash() throws InterruptedException {
            client.close();
            coordinator.close();
        }

        @Override
        public void close() throws InterruptedException {
            coordinator.close();
            client.close();
        }
    }

    @Override
    public void close() {
        etcd.close();
    }
}
