package io.muster.engine.resource.kv;

import io.muster.engine.resource.Change;
import io.muster.engine.resource.Context;
import io.muster.engine.resource.InvalidResourceException;
import io.muster.engine.resource.Property;
import io.muster.engine.resource.Refreshable;
import io.muster.engine.resource.Resource;
import io.muster.engine.resource.ResourceKind;
import io.muster.engine.resource.Result;
import io.muster.engine.resource.Schema;
import io.muster.engine.resource.SessionContext;
import io.muster.engine.resource.Type;
import io.muster.engine.resource.TypedParams;
import io.muster.engine.resource.Watcher;
import io.muster.engine.world.World;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * {@code kv}: a key of the World's store (the fleet's etcd under an agent, memory for {@code apply}) holds
 * {@code value}; without a value the key is deleted. As mgmt's: {@code key} defaults to the name; the key is
 * shared by the fleet unless {@code mapped} (then each host has its own); with {@code skiplessthan} a value that
 * is already greater is kept (compared as whole numbers, or as text with {@code skipcmpstyle: 1}), unless a
 * refresh arrived. Under {@code muster run} the key is watched: a change made by another host or tool has it
 * checked again.
 */
public final class KvKind implements ResourceKind {
    private static final Schema SCHEMA = Schema.of(null, Set.of(),
            Property.optional("key", Type.STRING),
            Property.optional("value", Type.STRING),
            Property.optional("mapped", Type.BOOLEAN),
            Property.optional("skiplessthan", Type.BOOLEAN),
            Property.oneOf("skipcmpstyle", "0", "1"));
    private static final long TIMEOUT_SECONDS = 30;

    @Override
    public String name() {
        return "kv";
    }

    @Override
    public Schema schema() {
        return SCHEMA;
    }

    /** A watch reaches the run's World through the kind's session. */
    @Override
    public AutoCloseable openSession(SessionContext context) {
        return new KvSession(context.world());
    }

    /** The run's World, as a kv watch finds it. */
    record KvSession(World world) implements AutoCloseable {
        @Override
        public void close() {
            // the World belongs to the run
        }
    }

    @Override
    public Resource create(TypedParams params) throws InvalidResourceException {
        String name = params.string("key", params.name());
        if (name.isEmpty()) throw new InvalidResourceException("key", "expected a key, got an empty one");
        World.Key key = params.bool("mapped", false) ? World.Key.host(name) : World.Key.shared(name);
        return new Kv(key, params.optionalString("value"), params.bool("skiplessthan", false),
                params.string("skipcmpstyle", "0").equals("1"));
    }

    record Kv(World.Key key, Optional<String> value, boolean skipLessThan, boolean textCompare) implements Refreshable {

        @Override
        public Result checkApply(Context context, boolean apply) throws Exception {
            World world = context.world();
            Optional<String> current = world.get(key).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            if (current.equals(value)) return Result.STABLE;
            if (value.isPresent() && current.isPresent() && !context.refresh() && skipLessThan && keeps(current.get())) return Result.STABLE;
            if (apply) {
                if (value.isPresent()) world.put(key, value.get()).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
                else world.delete(key).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            }
            return Result.changed(List.of(Change.of("value", current.orElse(null), value.orElse(null))));
        }

        @Override
        public void watch(Watcher watcher) throws Exception {
            World world = watcher.session(KvSession.class).world();
            try (World.Registration registration = world.watch(key, value -> watcher.changed())) {
                watcher.ready();
                Watcher.awaitCancel();
            }
        }

        /** Whether the value there is greater than this one, so that {@code skiplessthan} keeps it. */
        private boolean keeps(String there) {
            if (textCompare) return value.get().compareTo(there) < 0;
            try {
                return Long.parseLong(value.get().strip()) < Long.parseLong(there.strip());
            } catch (NumberFormatException e) {
                return false; // a value there that is no number is replaced, as mgmt replaces it
            }
        }
    }
}
