package io.muster.engine.run;

import io.muster.engine.graph.Vertex;
import io.muster.engine.template.Lookup;
import io.muster.engine.template.Redaction;

/**
 * The run's values as one resource reads them: each value it gets from a sensitive resource (and each it
 * renders from one) is remembered, so its error messages can be redacted whatever reported them.
 */
final class SensitiveReads implements Lookup {
    private final Values values;
    private final Redaction received = new Redaction();

    /** Starts with what {@code v} (and each resource grouped into it) received at compile time. */
    SensitiveReads(Values values, Vertex v) {
        this.values = values;
        received.addAll(v.received());
        v.grouped().forEach(member -> received.addAll(member.received()));
    }

    @Override
    public Object resourceValue(String reference) {
        Object value = values.resourceValue(reference);
        if (values.sensitiveReference(reference)) received.add(value);
        return value;
    }

    @Override
    public boolean sensitive(String id) {
        return values.sensitive(id);
    }

    @Override
    public void renderedSensitive(Object value) {
        received.add(value);
    }

    @Override
    public String redact(String message) {
        return received.redact(message);
    }
}
