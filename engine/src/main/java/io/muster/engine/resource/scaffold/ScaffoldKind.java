package io.muster.engine.resource.scaffold;

import io.muster.engine.resource.InvalidResourceException;
import io.muster.engine.resource.Property;
import io.muster.engine.resource.Resource;
import io.muster.engine.resource.ResourceKind;
import io.muster.engine.resource.Schema;
import io.muster.engine.resource.Type;
import io.muster.engine.resource.TypedParams;
import java.util.ArrayList;
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
        Map<String, String> files = p.stringMap("files", Map.of());
        List<PostCommand> post = new ArrayList<>();
        p.stringMap("post", Map.of()).forEach((glob, command) -> post.add(new PostCommand(glob, command)));
        return new ScaffoldResource(p.absolutePath("path"), !p.string("ensure", "present").equals("absent"), files,
                p.bool("purge", false), post, p.directory());
    }
}
