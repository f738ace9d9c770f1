package io.muster.engine.testing;

import io.muster.engine.resource.Change;
import io.muster.engine.resource.Context;
import io.muster.engine.resource.TypedParams;
import io.muster.engine.resource.Property;
import io.muster.engine.resource.Resource;
import io.muster.engine.resource.ResourceKind;
import io.muster.engine.resource.Result;
import io.muster.engine.resource.Reversible;
import io.muster.engine.resource.Schema;
import io.muster.engine.resource.Watcher;
import java.util.List;
import java.util.Set;

/**
 * {@code boom}: a resource that throws {@code error} (a real {@link StackOverflowError}, a real
 * {@link OutOfMemoryError}, or a {@link RuntimeException}) in its check, its apply, its watch or its
 * reverse, for tests that a run survives whatever a resource throws. Elsewhere it is stable. Not
 * registered with ServiceLoader: tests add it with {@link io.muster.engine.resource.Kinds#with}.
 */
public final class ThrowingKind implements ResourceKind {
    private static final Schema SCHEMA = Schema.of(null, Set.of(),
            Property.oneOf("error", "stackoverflow", "oom", "runtime"), Property.oneOf("in", "check", "apply", "watch", "reverse"));

    @Override
    public String name() {
        return "boom";
    }

    @Override
    public Schema schema() {
        return SCHEMA;
    }

    @Override
    public Resource create(TypedParams params) {
        return new Throwing(params.string("error", "stackoverflow"), params.string("in", "check"));
    }

    record Throwing(String error, String in) implements Reversible {
        @Override
        public Result checkApply(Context context, boolean apply) {
            if (in.equals("check")) throwIt();
            if (!in.equals("apply")) return Result.STABLE;
            if (apply) throwIt();
            return Result.changed(List.of(Change.of("boom", "quiet", "thrown")));
        }

        @Override
        public void watch(Watcher watcher) throws InterruptedException {
            if (in.equals("watch")) throwIt();
            watcher.ready();
            Watcher.awaitCancel();
        }

        @Override
        public void remember(Context context) {}

        @Override
        public Result reverse(Context context) {
            if (in.equals("reverse")) throwIt();
            return Result.STABLE;
        }

        private void throwIt() {
            switch (error) {
                case "stackoverflow" -> deeper(0);
                case "oom" -> allocateTooMuch();
                default -> throw new IllegalStateException("boom in " + in);
            }
        }

        private static int deeper(int depth) {
            return deeper(depth + 1) + 1;
        }

        /** As reading a 2 GiB file into one array does: refused at once, whatever the heap. */
        private static byte[] allocateTooMuch() {
            return new byte[Integer.MAX_VALUE];
        }
    }
}
