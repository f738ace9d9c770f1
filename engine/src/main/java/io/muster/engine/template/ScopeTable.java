package io.muster.engine.template;

import io.muster.engine.util.FileReads;
import io.muster.engine.util.Plain;
import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;

/**
 * What the templates of one manifest that are left for run time (late properties, {@code control} conditions)
 * may read, as plain data: the manifest's {@code data}, and only those facts and environment variables they
 * read, never the whole environment of the host that compiled it. A compiled graph carries it to wherever
 * it runs; {@link #scope} binds it there to a directory and a lookup.
 *
 * @param directory the manifest's directory relative to the bundle's (the root manifest's), {@code ""} for the root
 * @param dialect the language its templates are written in
 */
public record ScopeTable(String directory, Map<String, Object> data, Map<String, Object> facts, Map<String, String> env,
                         TemplateDialect dialect) {

    public ScopeTable {
        data = Plain.map(data);
        facts = Plain.map(facts);
        @SuppressWarnings("unchecked") // plain strings stay strings
        Map<String, String> names = (Map<String, String>) (Map<String, ?>) Plain.map(env);
        env = names;
        Objects.requireNonNull(dialect, "dialect");
    }

    /** The table of a manifest of muster's own templates. */
    public ScopeTable(String directory, Map<String, Object> data, Map<String, Object> facts, Map<String, String> env) {
        this(directory, data, facts, env, TemplateDialect.NATIVE);
    }

    /** The table of a manifest whose templates, written in {@code dialect}, read nothing at run time but its data. */
    public static ScopeTable of(String directory, Map<String, ?> data, TemplateDialect dialect) {
        return new ScopeTable(directory, Plain.map(data), Map.of(), Map.of(), dialect);
    }

    /** What a run-time template sees: this table, relative paths meaning {@code manifestDirectory}, lookups going to {@code lookup}. */
    public Scope scope(Path manifestDirectory, Lookup lookup) {
        return new Scope(data, facts, env, manifestDirectory, lookup, FileReads.NONE, dialect);
    }
}
