package io.muster.agent.etcd;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.KeyValue;
import io.etcd.jetcd.kv.GetResponse;
import io.etcd.jetcd.op.Cmp;
import io.etcd.jetcd.op.CmpTarget;
import io.etcd.jetcd.op.Op;
import io.etcd.jetcd.options.PutOption;
import io.muster.engine.world.Checks;
import io.muster.engine.world.Delivery;
import io.muster.engine.world.World;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Consumer;
import java.util.function.Function;
import org.slf4j.LoggerFactory;

/**
 * The World of an agent: keys under {@code world/hosts/<host>/} and {@code world/shared/}, exports under {@code
 * exported/<kind>/<host>/<name>} bound to the agent's lease (they go when the agent goes, and are published
 * again under the new lease when the host registers again). Every write is a transaction that leaves a value
 * equal to the one there as it is, so watchers see real changes only. Each call runs on a virtual thread of
 * its own and waits for etcd at most the connect timeout; its future fails with {@link
 * EtcdUnreachableException} when etcd does not answer.
 */
public final class EtcdWorld implements World, AutoCloseable {
    private static final Comparator<Exported> BY_HOST_AND_NAME = Comparator.comparing(Exported::host).thenComparing(Exported::name);
    private static final int PUBLISH_ATTEMPTS = 5;

    private final Etcd etcd;
    private final String host;
    private final HostRegistration registration;
    private final ExecutorService calls = Executors.newVirtualThreadPerTaskExecutor();
    /** What this host published, by kind and name, to publish again under a new lease. */
    private final Map<List<String>, String> published = new ConcurrentHashMap<>();

    /** @param registration the host's registration, whose lease binds the exports */
    public EtcdWorld(Etcd etcd, HostRegistration registration, String host) {
        Checks.name("host", host);
        this.etcd = etcd;
        this.host = Keys.checkHost(host);
        this.registration = registration;
        registration.onRegistered(lease -> republish());
    }

    @Override
    public String host() {
        return host;
    }

    private ByteSequence key(Key key) {
        return key.shared() ? Keys.worldShared(key.name()) : Keys.worldHost(host, key.name());
    }

    @Override
    public CompletableFuture<Optional<String>> get(Key key) {
        return call(() -> {
            GetResponse response = etcd.await(etcd.kv().get(key(key)));
            return response.getKvs().stream().findFirst().map(kv -> text(kv.getValue()));
        });
    }

    @Override
    public CompletableFuture<Void> put(Key key, String value) {
        Checks.value(value);
        ByteSequence etcdKey = key(key);
        ByteSequence bytes = ByteSequence.from(value, StandardCharsets.UTF_8);
        return call(() -> {
            etcd.await(etcd.kv().txn()
                    .If(new Cmp(etcdKey, Cmp.Op.EQUAL, CmpTarget.value(bytes)))
                    .Else(Op.put(etcdKey, bytes, PutOption.DEFAULT))
                    .commit());
            return null;
        });
    }

    @Override
    public CompletableFuture<Void> delete(Key key) {
        ByteSequence etcdKey = key(key);
        return call(() -> {
            etcd.await(etcd.kv().delete(etcdKey)); // deleting a missing key is no event
            return null;
        });
    }

    @Override
    public Registration watch(Key key, Consumer<Optional<String>> listener) {
        ByteSequence etcdKey = key(key);
        return deliver("watch of " + key, etcdKey, false, KeyValue::getValue, listener,
                state -> Optional.ofNullable(StateWatch.value(state, etcdKey)).map(EtcdWorld::text));
    }

    @Override
    public CompletableFuture<Void> publish(String kind, String name, String content) {
        new Exported(host, kind, name, content); // the checks every World makes
        return call(() -> {
            published.put(List.of(kind, name), content); // first: a registration from now on publishes it too
            publishNow(kind, name, content);
            return null;
        });
    }

    /**
     * Writes the export bound to the current lease, unless it is there already with that content and lease:
     * compared on its revision, so a concurrent change is seen and the write tried again. Before the host is
     * registered there is no lease: its registration publishes what {@link #published} holds.
     */
    private void publishNow(String kind, String name, String content) throws EtcdUnreachableException {
        ByteSequence key = Keys.exported(kind, host, name);
        ByteSequence value = ByteSequence.from(content, StandardCharsets.UTF_8);
        for (int attempt = 1; ; attempt++) {
            long lease = registration.lease();
            if (lease == 0) return;
            KeyValue there = etcd.await(etcd.kv().get(key)).getKvs().stream().findFirst().orElse(null);
            if (there != null && there.getValue().equals(value) && there.getLease() == lease) return;
            boolean written = etcd.await(etcd.kv().txn()
                    .If(new Cmp(key, Cmp.Op.EQUAL, CmpTarget.modRevision(there == null ? 0 : there.getModRevision())))
                    .Then(Op.put(key, value, PutOption.builder().withLeaseId(lease).build()))
                    .commit()).isSucceeded();
            if (written) return;
            if (attempt == PUBLISH_ATTEMPTS) throw new IllegalStateException("the export " + Keys.text(key) + " kept changing while published");
        }
    }

    private void republish() {
        published.forEach((kindAndName, content) -> call(() -> {
            publishNow(kindAndName.get(0), kindAndName.get(1), content);
            return null;
        }).exceptionally(e -> {
            LoggerFactory.getLogger("muster.agent").warn("publishing {} {} again: {}", kindAndName.get(0), kindAndName.get(1), e.getMessage());
            return null;
        }));
    }

    @Override
    public CompletableFuture<Void> withdraw(String kind, String name) {
        ByteSequence key = Keys.exported(kind, host, name);
        return call(() -> {
            published.remove(List.of(kind, name));
            etcd.await(etcd.kv().delete(key));
            return null;
        });
    }

    @Override
    public Registration collect(String kind, Consumer<List<Exported>> listener) {
        Checks.name("kind", kind);
        // an export bound to no lease would outlive its host: only an agent's registration binds one
        return deliver("collection of " + kind, Keys.exportedKind(kind), true, kv -> kv.getLease() == 0 ? null : kv.getValue(), listener, state -> {
            List<Exported> exports = new ArrayList<>();
            state.forEach((key, value) -> {
                Keys.Export export = Keys.parseExported(kind, Keys.key(key));
                if (export != null) exports.add(new Exported(export.host(), kind, export.name(), text(value)));
            });
            exports.sort(BY_HOST_AND_NAME);
            return exports;
        });
    }

    /** A {@link StateWatch} whose states, turned into what the listener takes, are delivered one at a time. */
    private <T> Registration deliver(String what, ByteSequence key, boolean prefix, Function<KeyValue, ByteSequence> keep,
                                     Consumer<T> listener, Function<SortedMap<String, ByteSequence>, T> convert) {
        Delivery<T> delivery = new Delivery<>(what, listener, d -> {});
        StateWatch<ByteSequence> watch = new StateWatch<>(etcd, key, prefix, Backoff.forAgent(), keep, state -> delivery.offer(convert.apply(state)));
        return () -> {
            watch.close();
            delivery.close();
        };
    }

    private interface Call<T> {
        T run() throws Exception;
    }

    private <T> CompletableFuture<T> call(Call<T> call) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                return call.run();
            } catch (RuntimeException e) {
                throw e;
            } catch (Exception e) {
                throw new CompletionException(e);
            }
        }, calls);
    }

    private static String text(ByteSequence bytes) {
        return bytes.toString(StandardCharsets.UTF_8);
    }

    @Override
    public void close() {
        calls.shutdown();
    }
}
