package io.muster.engine.template;

/** Resolves {@code lookup('kind#name.field')}: another resource's declared parameter or produced value. */
@FunctionalInterface
public interface Lookup {
    /**
     * @throws UnknownNameException when no such resource or field exists
     * @throws UnresolvableException when the value exists only once its producer applied, and it did not
     */
    Object resourceValue(String reference);

    /**
     * Whether the values of resource {@code id} are secret: it is marked {@code sensitive}, or it reads a
     * value of one that is. What renders them must not show them in logs, reports or diffs.
     */
    default boolean sensitive(String id) {
        return false;
    }

    /**
     * Called with a value rendered from sensitive values, so that {@link #redact} hides it too (a
     * transformed secret, {@code upper(...)}, no longer contains the value looked up).
     */
    default void renderedSensitive(Object value) {}

    /** {@code message} without the sensitive values this lookup handed out or was told of. */
    default String redact(String message) {
        return message;
    }

    /** For templates that may not refer to other resources (data, hierarchy). */
    Lookup NONE = reference -> {
        throw new TemplateException("lookup('" + reference + "'): resources cannot be referenced here");
    };
}
