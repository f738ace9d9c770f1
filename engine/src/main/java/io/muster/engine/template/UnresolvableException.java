package io.muster.engine.template;

/**
 * A template needs a value that only applying another resource would produce, and that resource did not
 * apply (noop, plan). The consumer is reported {@code unresolvable}: it may change once applied for real.
 */
public final class UnresolvableException extends RuntimeException {
    public UnresolvableException(String message) {
        super(message, null, false, false);
    }
}
