package io.muster.engine.template;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * The functions templates can call without a prefix. Public because the expression engine calls them
 * reflectively; one instance per evaluation, bound to its {@link Scope}.
 */
public final class Functions {
    private final Scope scope;

    Functions(Scope scope) {
        this.scope = scope;
    }

    /** {@code lookup('data.port')}, {@code lookup('facts.os.family')} or {@code lookup('exec#myip.stdout')}. */
    public Object lookup(String path) {
        return find(path, null, false);
    }

    /** As {@link #lookup(String)}, but a missing key, or a value its resource did not produce this run, gives {@code fallback}. */
    public Object lookup(String path, Object fallback) {
        return find(path, fallback, true);
    }

    /** The content of a file, relative to the manifest's directory. */
    public String file(String path) {
        Path resolved = scope.directory().resolve(path);
        try {
            return Files.readString(resolved);
        } catch (IOException e) {
            throw new TemplateException("file('" + path + "'): cannot read " + resolved + ": " + e.getMessage());
        }
    }

    public String basename(String path) {
        Path name = Path.of(path).getFileName();
        return name == null ? "" : name.toString();
    }

    public String dirname(String path) {
        Path parent = Path.of(path).getParent();
        return parent == null ? "." : parent.toString();
    }

    private Object find(String path, Object fallback, boolean hasFallback) {
        if (path.contains("#")) {
            try {
                return scope.lookup().resourceValue(path);
            } catch (MissingValueException e) {
                if (hasFallback) return fallback;
                throw e;
            }
        }
        String[] parts = path.split("\\.");
        Object current = scope.root(parts[0]);
        if (current == null) {
            throw new UnknownNameException("lookup('" + path + "'): expected a path starting with data., facts., env. or a resource id kind#name.field");
        }
        for (int i = 1; i < parts.length; i++) {
            if (current instanceof Map<?, ?> map && map.containsKey(parts[i])) {
                current = map.get(parts[i]);
            } else if (hasFallback) {
                return fallback;
            } else {
                String prefix = String.join(".", java.util.Arrays.copyOf(parts, i));
                var known = current instanceof Map<?, ?> map
                        ? map.keySet().stream().map(k -> prefix + "." + k).toList()
                        : java.util.List.<String>of();
                throw new UnknownNameException(path, known);
            }
        }
        return current;
    }
}
