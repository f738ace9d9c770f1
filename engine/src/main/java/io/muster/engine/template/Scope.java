package io.muster.engine.template;

import io.muster.engine.util.FileReads;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * What a template can see: {@code data}, {@code facts}, {@code env}, and the functions of
 * {@link Functions}. Relative paths in functions resolve against {@code directory}, the directory of the
 * manifest the template is written in. {@code reads} notes the files a function reads (a compilation's, for its cache).
 * {@code dialect} is the language the manifest's templates are written in.
 */
public record Scope(Map<String, ?> data, Map<String, ?> facts, Map<String, String> env, Path directory, Lookup lookup, FileReads reads,
                    TemplateDialect dialect) {
    static final List<String> ROOTS = List.of("data", "facts", "env");

    /** A scope of muster's own templates. */
    public Scope(Map<String, ?> data, Map<String, ?> facts, Map<String, String> env, Path directory, Lookup lookup, FileReads reads) {
        this(data, facts, env, directory, lookup, reads, TemplateDialect.NATIVE);
    }

    /** A scope of muster's own templates whose file reads nobody notes. */
    public Scope(Map<String, ?> data, Map<String, ?> facts, Map<String, String> env, Path directory, Lookup lookup) {
        this(data, facts, env, directory, lookup, FileReads.NONE);
    }

    public Scope withLookup(Lookup other) {
        return new Scope(data, facts, env, directory, other, reads, dialect);
    }

    /** This scope, its templates written in {@code other}: a foreign manifest's. */
    public Scope withDialect(TemplateDialect other) {
        return new Scope(data, facts, env, directory, lookup, reads, other);
    }

    Map<String, ?> root(String name) {
        return switch (name) {
            case "data" -> data;
            case "facts" -> facts;
            case "env" -> env;
            default -> null;
        };
    }
}
