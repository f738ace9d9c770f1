package io.muster.engine.resource.timer;

import io.muster.engine.resource.Change;
import io.muster.engine.resource.Context;
import io.muster.engine.resource.Property;
import io.muster.engine.resource.Resource;
import io.muster.engine.resource.ResourceKind;
import io.muster.engine.resource.Result;
import io.muster.engine.resource.Schema;
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
 * every interval, as under mgmt. A one-shot run (apply, plan) has no ticks: the timer is stable.
 */
public final class TimerKind implements ResourceKind {
    private static final Schema SCHEMA = Schema.of(null, Set.of(), Property.required("interval", Type.NUMBER)
            .checkedBy(raw -> Type.NUMBER.tryConvert(raw) instanceof Double d && d >= 1 && d == Math.rint(d) ? null
                    : "expected whole seconds, 1 or more, got " + raw));
    /**
     * Whether a tick came since the last apply, by timer name: the engine checks an instance other than the one
     * it watches, so the tick is kept where both find it.
     */
    private static final Map<String, AtomicBoolean> TICKS = new ConcurrentHashMap<>();

    @Override
    public String name() {
        return "timer";
    }

    @Override
    public Schema schema() {
        return SCHEMA;
    }

    @Override
    public Resource create(TypedParams params) {
        return new Timer((long) params.number("interval", 1), TICKS.computeIfAbsent(params.name(), n -> new AtomicBoolean()));
    }

    /** A timer; {@code ticked} says a tick came since the last apply. */
    record Timer(long intervalSeconds, AtomicBoolean ticked) implements Resource {

        @Override
        public Result checkApply(Context context, boolean apply) {
            boolean tick = apply ? ticked.getAndSet(false) : ticked.get();
            return tick ? Result.changed(List.of(Change.of("tick", null, intervalSeconds + "s"))) : Result.STABLE;
        }

        @Override
        public void watch(Watcher watcher) throws InterruptedException {
            watcher.ready();
            while (true) {
                TimeUnit.SECONDS.sleep(intervalSeconds);
                ticked.set(true);
                watcher.changed();
            }
        }

    }
}
