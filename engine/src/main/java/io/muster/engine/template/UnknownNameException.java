package io.muster.engine.template;

import io.muster.engine.util.Suggest;
import java.util.Collection;

/** Templates are strict: a name that does not exist is an error, never an empty string. */
public final class UnknownNameException extends TemplateException {
    public UnknownNameException(String name, Collection<String> known) {
        super("unknown name '" + name + "'" + Suggest.hint(name, known));
    }

    public UnknownNameException(String message) {
        super(message);
    }
}
