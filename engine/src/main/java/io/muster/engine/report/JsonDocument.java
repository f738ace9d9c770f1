package io.muster.engine.report;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The top of every JSON document muster prints for its users ({@code --output json} of apply, plan, check,
 * run, validate, status, deploy and deploys): {@code "schema"} first, the version of the shapes
 * {@code docs/schema/report-1.json} describes. Adding a field keeps the version; renaming or removing one,
 * or changing a field's type, makes the next.
 */
public final class JsonDocument {
    public static final int SCHEMA = 1;

    private JsonDocument() {}

    /** An empty document carrying the schema version, for the caller's fields to follow in order. */
    public static Map<String, Object> create() {
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("schema", SCHEMA);
        return doc;
    }
}
