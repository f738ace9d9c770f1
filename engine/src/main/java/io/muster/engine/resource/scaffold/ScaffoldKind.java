package io.muster.engine.resource.scaffold;

import io.muster.engine.resource.InvalidResourceException;
import io.muster.engine.resource.Property;
import io.muster.engine.resource.Resource;
import io.muster.engine.resource.ResourceKind;
import io.muster.engine.resource.Schema;
import io.muster.engine.resource.Type;
import io.muster.engine.resource.TypedParams;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code scaffold}: a directory holding a set of rendered files (CCM's scaffold): {@code files} maps each path
 * relative to the directory to its content; {@code purge} removes the other files the directory holds;
 * {@code post} maps globs to commands, in order: each runs on a file written whose name matches. The front end that reads the
 * templates renders them into {@code files} when it compiles.
 */
public final class ScaffoldKind implements ResourceKind {
    private static final Schema SCHEMA = Schema.of("path", Set.of(),
            Property.required("path", Type.PATH),
            Property.oneOf("ensure", "present", "absent"),
            Property.required("files", Type.STRING_MAP),
            Property.optional("purge", Type.BOOLEAN),
            Property.optional("post", Type.STRING_MAP));

    /** A {@link Type#STRING_MAP} value, as the schema converted it. */
    private static Map<String, String> strings(Object converted) {
        Map<String, String> out = new LinkedHashMap<>();
        ((Map<?, ?>) converted).forEach((k, v) -> out.put(String.valueOf(k), String.valueOf(v)));
        return out;
    }

    @Override
    public String name() {
        return "scaffold";
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
    public Resource create(TypedParams p) throws InvalidResourceException {
        Map<String, String> files = strings(p.optionalAny("files").orElse(Map.of()));
        List<PostCommand> post = new ArrayList<>();
        strings(p.optionalAny("post").orElse(Map.of())).forEach((glob, command) -> post.add(new PostCommand(glob, command)));
        return new ScaffoldResource(p.absolutePath("path"), !p.string("ensure", "present").equals("absent"), files,
                p.bool("purge", false), post, p.directory());
    }
}
