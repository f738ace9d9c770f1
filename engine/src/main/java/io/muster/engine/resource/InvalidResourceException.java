package io.muster.engine.resource;

/** A parameter, or a combination of them, that makes no sense; {@code property} says where to point. */
public final class InvalidResourceException extends Exception {
    private final String property;

    public InvalidResourceException(String property, String message) {
        super(message, null, false, false);
        this.property = property;
    }

    /** The offending property, or null when the resource as a whole is wrong. */
    public String property() {
        return property;
    }
}
