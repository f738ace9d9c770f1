package io.muster.engine.report;

import java.util.Locale;

/** The outcome of one resource in a run. In noop, {@code CHANGED} means "would change". */
public enum Status {
    CHANGED, STABLE, FAILED,
    /** Not run: a dependency failed, or its {@code control} condition said so. */
    SKIPPED,
    /** Not checked: it needs a value only an apply of another resource would produce (noop only). */
    UNRESOLVABLE;

    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
