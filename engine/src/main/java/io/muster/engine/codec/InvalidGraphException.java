package io.muster.engine.codec;

/** A graph message that cannot be run: not a graph, or one naming what does not exist here or cannot hold. */
public final class InvalidGraphException extends Exception {
    public InvalidGraphException(String message) {
        super(message);
    }

    public InvalidGraphException(String message, Throwable cause) {
        super(message, cause);
    }
}
