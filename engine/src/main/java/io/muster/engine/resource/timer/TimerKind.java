package io.muster.engine.resource.timer;

import io.muster.engine.resource.Change;
import io.muster.engine.resource.Context;
import io.muster.engine.resource.Property;
import io.muster.engine.resource.Resource;
import io.muster.engine.resource.ResourceKind;
import io.muster.engine.resource.Result;
import io.muster.engine.resource.Schema;
import io.muster.engine.resource.SessionContext;
import io.muster.engine.resource.Type;
import io.muster.engine.resource.TypedParams;
import io.muster.engine.resource.Watcher;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * {@code timer}: ticks every {@code interval} seconds under {@code muster run}. A tick is reported as a change
 * ({@code tick}), so the resources after the timer are checked again: an exec without guards after a timer runs
 * every interval, as under mgmt. A one-shot run (apply, plan) has no ticks: the timer is stable. A tick is kept in
 * the kind's session for the run, where the timer's watch and its checks both find it.
 */
public final class TimerKind implements ResourceKind {
    private static final Schema SCHEMA = Schema.of(null, Set.of(), Property.required("interval", Type.NUMBER)
            .checkedBy(raw -> Type.NUMBER.tryConvert(raw) instanceof Double d && d >= 1 && d == Math.rint(d) ? null
                    : "expected whole seconds, 1 or more, got " + raw));

    @Override
    public String name() {
        return "timer";
    }

    @Override
    public Schema schema() {
        return SCHEMA;
    }

    /** The run's ticks: a timer's watch and its checks meet there, as the engine checks another instance than it watches. */
    @Override
    public AutoCloseable openSession(SessionContext context) {
        return new Ticks(new ConcurrentHashMap<>());
    }

    /** Whether a tick came since the last apply, by timer name, for one run. */
    record Ticks(Map<String, AtomicBoolean> byName) implements AutoCloseable {
        AtomicBoolean of(String name) {
            return byName.computeIfAbsent(name, n -> new AtomicBoolean());
        }

        @Override
        public void close() {
            // nothing is held open
        }
    }

    @Override
    public Resource create(TypedParams params) {
        return new Timer(params.name(), (long) params.number("interval", 1));
    }

    record Timer(String name, long intervalSeconds) implements Resource {

        @Override
        public Result checkApply(Context context, boolean apply) throws Exception {
            AtomicBoolean ticked = context.session(Ticks.class).of(name);
            boolean tick = apply ? ticked.getAndSet(false) : ticked.get();
            return tick ? Result.changed(List.of(Change.of("tick", null, intervalSeconds + "s"))) : Result.STABLE;
        }

        @Override
        public void watch(Watcher watcher) throws Exception {
            AtomicBoolean ticked = watcher.session(Ticks.class).of(name);
            watcher.ready();
            while (true) {
                TimeUnit.SECONDS.sleep(intervalSeconds);
                ticked.set(true);
                watcher.changed();
            }
        }
    }
}
