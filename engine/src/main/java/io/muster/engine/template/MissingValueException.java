package io.muster.engine.template;

/**
 * A resource exists and declares the field, but produced no value this run (an exec whose guard said the
 * work was done never ran, so it has no stdout). {@code lookup(path, fallback)} gives the fallback.
 */
public final class MissingValueException extends TemplateException {
    public MissingValueException(String message) {
        super(message);
    }
}
