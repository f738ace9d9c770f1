package io.muster.engine.template;

import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentSkipListSet;

/**
 * The sensitive values a resource received (what it looked up from sensitive resources, and what it
 * rendered from them). Its error messages are passed through {@link #redact}, so no kind has to remember
 * which of its values are secret: a message that echoes one, even inside a path or a Java exception's
 * text, shows {@code (sensitive)} instead.
 */
public final class Redaction {
    public static final String REDACTED = "(sensitive)";

    /** Longest first, so a value that contains another is replaced whole. */
    private final Set<String> secrets = new ConcurrentSkipListSet<>(
            Comparator.comparingInt(String::length).reversed().thenComparing(Comparator.naturalOrder()));

    /** Adds a value (each scalar in a list or map), and each line of a text, which a message may quote alone. */
    public void add(Object value) {
        switch (value) {
            case null -> { }
            case Map<?, ?> map -> map.values().forEach(this::add);
            case Collection<?> items -> items.forEach(this::add);
            default -> {
                String text = String.valueOf(value);
                if (!text.isBlank()) secrets.add(text);
                text.lines().map(String::strip).filter(line -> !line.isEmpty()).forEach(secrets::add);
            }
        }
    }

    public void addAll(Redaction other) {
        secrets.addAll(other.secrets);
    }

    /** The values it redacts, longest first (so a graph can carry them). */
    public List<String> values() {
        return List.copyOf(secrets);
    }

    public boolean isEmpty() {
        return secrets.isEmpty();
    }

    /** {@code message} with each occurrence of each value replaced by {@code (sensitive)}. */
    public String redact(String message) {
        if (message == null) return null;
        String result = message;
        for (String secret : secrets) result = result.replace(secret, REDACTED);
        return result;
    }
}
