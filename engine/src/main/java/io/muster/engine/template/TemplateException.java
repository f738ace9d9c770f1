package io.muster.engine.template;

/** A template that cannot be rendered: syntax, unknown name, or a failing function. */
public class TemplateException extends RuntimeException {
    public TemplateException(String message) {
        super(message, null, false, false);
    }
}
