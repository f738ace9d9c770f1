package io.muster.engine.resource.msg;

import io.muster.engine.resource.Context;
import io.muster.engine.resource.Property;
import io.muster.engine.resource.Resource;
import io.muster.engine.resource.ResourceKind;
import io.muster.engine.resource.Result;
import io.muster.engine.resource.Schema;
import io.muster.engine.resource.Type;
import io.muster.engine.resource.TypedParams;
import java.util.Set;

/**
 * {@code msg}: logs a message each run and puts it in the report; never changes anything, so it can
 * anchor relations without spoiling idempotence ({@code --detailed-exitcodes} stays 0). A sensitive message
 * (set, or rendered from a sensitive resource's value) is neither logged nor reported. With {@code fail: true}
 * it fails with its message instead: a point where a run is known to go wrong (the CCM front end's run that stops
 * at a reference to a resource not run yet).
 */
public final class MsgKind implements ResourceKind {
    private static final Schema SCHEMA = Schema.of(null, Set.of(),
            Property.required("message", Type.STRING),
            Property.oneOf("level", "info", "warn", "error"),
            Property.optional("sensitive", Type.BOOLEAN),
            Property.optional("fail", Type.BOOLEAN));
    static final String REDACTED = "(sensitive message)";

    @Override
    public String name() {
        return "msg";
    }

    @Override
    public Schema schema() {
        return SCHEMA;
    }

    @Override
    public Resource create(TypedParams params) {
        return new Msg(params.bool("sensitive", false) ? REDACTED : params.string("message"), params.choice("level", Level.INFO),
                params.bool("fail", false));
    }

    enum Level { INFO, WARN, ERROR }

    record Msg(String message, Level level, boolean fail) implements Resource {
        @Override
        public Result checkApply(Context context, boolean apply) throws Exception {
            if (fail) throw new Exception(message);
            switch (level) {
                case INFO -> context.log().info(message);
                case WARN -> context.log().warn(message);
                case ERROR -> context.log().error(message);
            }
            return Result.STABLE.withMessage(message);
        }
    }
}
