package io.muster.engine.report;

import java.util.Locale;

/** The outcome of one resource in a run. In noop, {@code CHANGED} means "would change". */
public enum Status {
    CHANGED, STABLE, FAILED,
    /** Not run: a dependency failed, or its {@code control} condition said so. */
    SKIPPED,
    /** Not checked: it needs a value only an apply of another resource would produce (noop only). */
    UNRESOLVABLE,
    /** Would change, and a noop check foresaw the apply failing (noop only): a missing directory, program or user. */
    WOULD_FAIL;

    /** In JSON: {@code would_fail}. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** In text: {@code would fail}. */
    public String words() {
        return label().replace('_', ' ');
    }

    /** Failed, or foreseen to fail: what the exit codes count as failures. */
    public boolean failure() {
        return this == FAILED || this == WOULD_FAIL;
    }
}
