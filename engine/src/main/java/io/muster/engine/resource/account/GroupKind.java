package io.muster.engine.resource.account;

import io.muster.engine.resource.Property;
import io.muster.engine.resource.Resource;
import io.muster.engine.resource.ResourceKind;
import io.muster.engine.resource.Schema;
import io.muster.engine.resource.Type;
import io.muster.engine.resource.TypedParams;
import java.util.Set;

/** {@code group}: a local group, its gid and (when given) exactly its members; {@code ensure: absent} removes it. */
public final class GroupKind implements ResourceKind {
    private static final Schema SCHEMA = Schema.of("name", Set.of("gid"),
            Property.required("name", Type.STRING).checkedBy(raw -> Ids.nameProblem(String.valueOf(raw))),
            Property.oneOf("ensure", "present", "absent"),
            Property.optional("gid", Type.STRING).checkedBy(Ids::idProblem),
            Property.optional("system", Type.BOOLEAN),
            Property.optional("members", Type.STRING_LIST).checkedBy(Ids::namesProblem));

    @Override
    public String name() {
        return "group";
    }

    @Override
    public Schema schema() {
        return SCHEMA;
    }

    @Override
    public boolean runsCommands() {
        return true;
    }

    @Override
    public Resource create(TypedParams p) {
        return new GroupResource(p.string("name"), p.string("ensure", "present").equals("present"),
                p.optionalString("gid").map(Long::parseLong).orElse(null), p.bool("system", false),
                p.strings("members", null));
    }
}
