package io.muster.engine.manifest;

import io.muster.engine.util.Numbers;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.snakeyaml.engine.v2.api.LoadSettings;
import org.snakeyaml.engine.v2.composer.Composer;
import org.snakeyaml.engine.v2.constructor.StandardConstructor;
import org.snakeyaml.engine.v2.exceptions.MarkedYamlEngineException;
import org.snakeyaml.engine.v2.exceptions.ReaderException;
import org.snakeyaml.engine.v2.exceptions.YamlEngineException;
import org.snakeyaml.engine.v2.nodes.MappingNode;
import org.snakeyaml.engine.v2.nodes.Node;
import org.snakeyaml.engine.v2.nodes.NodeTuple;
import org.snakeyaml.engine.v2.nodes.ScalarNode;
import org.snakeyaml.engine.v2.nodes.SequenceNode;
import org.snakeyaml.engine.v2.nodes.Tag;
import org.snakeyaml.engine.v2.schema.CoreSchema;

/**
 * Reads one YAML 1.2 document (core schema) into {@link YNode}s. Duplicate keys are errors naming both
 * lines; scalars keep YAML 1.2 types, so {@code 0644} is the decimal number 644, which is why file modes
 * must be quoted. A manifest has limits (documented in the README), each reported where it is passed:
 * its size, how deep lists and maps nest, how many aliases of lists and maps it has, and how many values
 * it holds once aliases are expanded (so a few aliases cannot multiply into billions of values).
 */
public final class YamlReader {
    /**
     * Room for 100 000 resources and more: a file resource takes a line of about 100 bytes. snakeyaml-engine's own
     * limit (3 MiB of code points by default) is lifted for this one, which names the file.
     */
    public static final int MAX_BYTES = 32 << 20;
    public static final int MAX_DEPTH = 200;
    public static final int MAX_ALIASES = 1000;
    /**
     * More than {@link #MAX_BYTES} of resources hold (a file resource is three values in about 100 bytes: a million
     * values at most), so only aliases multiplying each other reach it, or two million bare numbers in a list.
     */
    public static final int MAX_VALUES = 2_000_000;
    private static final Set<Tag> SCALAR_TAGS = Set.of(Tag.STR, Tag.INT, Tag.FLOAT, Tag.BOOL, Tag.NULL);

    private YamlReader() {}

    public static YNode read(Path file) throws ManifestException {
        if (Files.exists(file) && !Files.isRegularFile(file)) { // opening a FIFO waits for a writer, maybe forever
            throw new ManifestException(Mark.of(file), "cannot read: not a regular file (a directory, FIFO or device)");
        }
        byte[] bytes;
        try (InputStream in = Files.newInputStream(file)) {
            bytes = in.readNBytes(MAX_BYTES + 1); // bounded: a huge file or /dev/zero is never read whole
        } catch (NoSuchFileException e) {
            throw new ManifestException(Mark.of(file), "file not found");
        } catch (IOException e) {
            throw new ManifestException(Mark.of(file), "cannot read: " + e.getMessage());
        }
        if (bytes.length > MAX_BYTES) {
            throw new ManifestException(Mark.of(file), "larger than " + (MAX_BYTES >> 20) + " MiB, the limit for a manifest or facts file");
        }
        try {
            return parse(file, StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(bytes)).toString());
        } catch (CharacterCodingException e) {
            throw new ManifestException(Mark.of(file), "cannot read: not UTF-8 text");
        }
    }

    public static YNode parse(Path file, String text) throws ManifestException {
        LoadSettings settings = LoadSettings.builder()
                .setLabel(file.toString())
                .setSchema(new CoreSchema())
                .setUseMarks(true)
                .setCodePointLimit(Integer.MAX_VALUE) // read() limits the size, naming the file
                .setMaxAliasesForCollections(Integer.MAX_VALUE) // LimitedParser limits them, naming the alias
                .build();
        List<Node> documents = new ArrayList<>();
        try {
            new Composer(settings, LimitedParser.of(settings, text)).forEachRemaining(documents::add);
        } catch (LimitedParser.Exceeded e) {
            throw new ManifestException(mark(file, e.mark()), e.getMessage());
        } catch (ReaderException e) {
            throw new ManifestException(mark(file, text, e.getPosition()), String.format(Locale.ROOT, "invalid YAML: the character U+%04X is"
                    + " not allowed; write it as an escape in a double-quoted string (\"\\x%02X\")", e.getCodePoint(), e.getCodePoint()));
        } catch (MarkedYamlEngineException e) {
            throw new ManifestException(mark(file, e.getProblemMark().or(e::getContextMark)), "invalid YAML: " + e.getProblem());
        } catch (YamlEngineException e) {
            throw new ManifestException(Mark.of(file), "invalid YAML: " + e.getMessage());
        }
        if (documents.isEmpty()) throw new ManifestException(Mark.of(file), "the manifest is empty");
        if (documents.size() > 1) {
            throw new ManifestException(mark(file, documents.get(1).getStartMark()),
                    "expected one YAML document, found " + documents.size());
        }
        return new Converter(file, new StandardConstructor(settings)).convert(documents.get(0), 0);
    }

    private static Mark mark(Path file, Optional<org.snakeyaml.engine.v2.exceptions.Mark> mark) {
        return mark.map(m -> new Mark(file, m.getLine() + 1, m.getColumn() + 1)).orElse(Mark.of(file));
    }

    /** The mark of the code point at {@code position} (the reader names no line). */
    private static Mark mark(Path file, String text, int position) {
        String before = text.substring(0, text.offsetByCodePoints(0, Math.min(position, text.codePointCount(0, text.length()))));
        int lineStart = before.lastIndexOf('\n') + 1;
        int line = (int) before.chars().filter(c -> c == '\n').count() + 1;
        return new Mark(file, line, before.codePointCount(lineStart, before.length()) + 1);
    }

    /** How a tag is written: {@code !!int} for the standard ones. */
    private static String written(Tag tag) {
        return tag.getValue().startsWith(Tag.PREFIX) ? "!!" + tag.getValue().substring(Tag.PREFIX.length()) : tag.getValue();
    }

    /**
     * Nodes to {@link YNode}s. The composer gives an alias the node it names, so the tree converted can be
     * deeper and larger than the text: depth and values are counted here again.
     */
    private static final class Converter {
        private final Path file;
        private final StandardConstructor constructor;
        private int values;

        Converter(Path file, StandardConstructor constructor) {
            this.file = file;
            this.constructor = constructor;
        }

        YNode convert(Node node, int depth) throws ManifestException {
            Mark mark = mark(file, node.getStartMark());
            if (depth > MAX_DEPTH) throw new ManifestException(mark, "nested deeper than " + MAX_DEPTH + " levels (the limit), through aliases");
            if (++values > MAX_VALUES) {
                throw new ManifestException(mark, "more than " + MAX_VALUES + " values once aliases are expanded (the limit)");
            }
            if (node instanceof ScalarNode scalar) return new YNode.Scalar(scalarValue(scalar, mark), mark);
            if (node instanceof SequenceNode seq) {
                List<YNode> items = new ArrayList<>(seq.getValue().size());
                for (Node item : seq.getValue()) items.add(convert(item, depth + 1));
                return new YNode.Seq(List.copyOf(items), mark);
            }
            MappingNode map = (MappingNode) node;
            Map<String, YNode.Entry> entries = new LinkedHashMap<>();
            for (NodeTuple tuple : map.getValue()) {
                Mark keyMark = mark(file, tuple.getKeyNode().getStartMark());
                if (!(tuple.getKeyNode() instanceof ScalarNode keyNode)) {
                    throw new ManifestException(keyMark, "expected a plain key, found a list or map used as a key");
                }
                Object keyValue = scalarValue(keyNode, keyMark);
                String key = keyValue == null ? "null" : keyValue.toString();
                YNode.Entry previous = entries.get(key);
                if (previous != null) {
                    throw new ManifestException(keyMark, "duplicate key '" + key + "' (first defined at line "
                            + previous.keyMark().line() + ")");
                }
                entries.put(key, new YNode.Entry(key, keyMark, convert(tuple.getValueNode(), depth + 1)));
            }
            return new YNode.Dict(entries, mark);
        }

        private Object scalarValue(ScalarNode node, Mark mark) throws ManifestException {
            Tag tag = node.getTag();
            if (tag.equals(Tag.STR)) return node.getValue(); // most scalars; skips the constructor's work
            if (!SCALAR_TAGS.contains(tag)) {
                throw new ManifestException(mark, "unsupported tag " + written(tag) + "; expected a string, number, boolean or null"
                        + " (!!str, !!int, !!float, !!bool, !!null)");
            }
            Object value = construct(node);
            if (value == null && !tag.equals(Tag.NULL)) {
                throw new ManifestException(mark, "'" + node.getValue() + "' is not a valid " + written(tag));
            }
            if (value instanceof Double d && Numbers.underflows(node.getValue(), d)) {
                throw new ManifestException(mark, "'" + node.getValue() + "' is too close to 0 for a number (it would be 0)");
            }
            return value;
        }

        /** The scalar's value; null when its text does not fit its tag ({@code !!int abc}, {@code !!bool yes}). */
        private Object construct(ScalarNode node) {
            try {
                return constructor.constructSingleDocument(Optional.of(node));
            } catch (RuntimeException e) { // its message names a Java exception, not what the user wrote
                return null;
            }
        }
    }
}
