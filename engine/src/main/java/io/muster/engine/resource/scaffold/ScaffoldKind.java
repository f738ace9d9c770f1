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
 * {@code post} runs a command on each file written whose name matches a glob. The front end that reads the
 * templates renders them into {@code files} when it compiles.
 */
public final class ScaffoldKind implements ResourceKind {
    private static final Schema SCHEMA = Schema.of("path", Set.of(),
            Property.required("path", Type.PATH),
            Property.oneOf("ensure", "present", "absent"),
            Property.required("files", Type.ANY),
            Property.optional("purge", Type.BOOLEAN),
            Property.optional("post", Type.ANY));

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
        Map<String, String> files = new LinkedHashMap<>();
        if (!(p.optionalAny("files").orElse(Map.of()) instanceof Map<?, ?> map)) throw new InvalidResourceException("files", "expected a map of paths to contents");
        map.forEach((k, v) -> files.put(String.valueOf(k), String.valueOf(v)));
        List<PostCommand> post = new ArrayList<>();
        if (p.optionalAny("post").orElse(List.of()) instanceof List<?> list) {
            for (Object item : list) {
                if (!(item instanceof Map<?, ?> entry)) throw new InvalidResourceException("post", "expected a list of {glob: command} maps");
                entry.forEach((glob, command) -> post.add(new PostCommand(String.valueOf(glob), String.valueOf(command))));
            }
        } else {
            throw new InvalidResourceException("post", "expected a list of {glob: command} maps");
        }
        return new ScaffoldResource(p.absolutePath("path"), !p.string("ensure", "present").equals("absent"), files,
                p.bool("purge", false), post, p.directory());
    }
}
