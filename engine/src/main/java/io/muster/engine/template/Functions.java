package io.muster.engine.template;

import io.muster.engine.util.fs.OpenFile;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
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

    /** The most {@link #file} reads: a template renders into memory, and a manifest is no place for more. */
    public static final int FILE_LIMIT = 16 << 20;

    /**
     * The content of a regular file (UTF-8), relative to the manifest's directory, of at most {@link #FILE_LIMIT}
     * bytes: a FIFO or device is refused before it is opened, as reading it could block or never end. A link on
     * the way is followed only when root owns it (see {@link OpenFile#regular}).
     */
    public String file(String path) {
        Path resolved = scope.directory().resolve(path);
        scope.reads().read(resolved.toAbsolutePath().normalize());
        String where = "file('" + path + "'): ";
        try {
            BasicFileAttributes attributes = Files.readAttributes(resolved, BasicFileAttributes.class);
            if (!attributes.isRegularFile()) {
                String what = attributes.isDirectory() ? "a directory" : "a device, FIFO or socket";
                throw new TemplateException(where + resolved + " is " + what + ", not a regular file");
            }
            String tooLarge = where + resolved + " is over " + (FILE_LIMIT >> 20) + " MiB, the most file() reads";
            if (attributes.size() > FILE_LIMIT) throw new TemplateException(tooLarge);
            byte[] content;
            try (OpenFile in = OpenFile.regular(resolved)) { // through root's links only, as a source
                if (in.stat().size() > FILE_LIMIT) throw new TemplateException(tooLarge); // it may have grown since
                content = in.readAll();
            }
            if (content.length > FILE_LIMIT) throw new TemplateException(tooLarge);
            return StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(content)).toString();
        } catch (CharacterCodingException e) {
            throw new TemplateException(where + resolved + " is not UTF-8 text");
        } catch (IOException e) {
            throw new TemplateException(where + "cannot read " + resolved + ": " + e.getMessage());
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
