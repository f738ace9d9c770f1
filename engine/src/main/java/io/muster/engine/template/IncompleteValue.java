package io.muster.engine.template;

/**
 * A value its resource produced only in part (an exec's stdout over the size muster keeps). A template
 * that reads it fails, saying {@code why}: going on with a value cut short would write a wrong file
 * and call it a success.
 */
public record IncompleteValue(String why) {}
