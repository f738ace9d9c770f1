package io.muster.engine.manifest;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.snakeyaml.engine.v2.api.LoadSettings;
import org.snakeyaml.engine.v2.api.lowlevel.Compose;
import org.snakeyaml.engine.v2.constructor.StandardConstructor;
import org.snakeyaml.engine.v2.exceptions.MarkedYamlEngineException;
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
 * must be quoted.
 */
public final class YamlReader {
    private static final int MAX_DEPTH = 200;

    private YamlReader() {}

    public static YNode read(Path file) throws ManifestException {
        String text;
        try {
            text = Files.readString(file);
        } catch (NoSuchFileException e) {
            throw new ManifestException(Mark.of(file), "file not found");
        } catch (IOException e) {
            throw new ManifestException(Mark.of(file), "cannot read: " + e.getMessage());
        }
        return parse(file, text);
    }

    public static YNode parse(Path file, String text) throws ManifestException {
        LoadSettings settings = LoadSettings.builder()
                .setLabel(file.toString())
                .setSchema(new CoreSchema())
                .setUseMarks(true)
                .build();
        List<Node> documents = new ArrayList<>();
        try {
            new Compose(settings).composeAllFromString(text).forEach(documents::add);
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

    private record Converter(Path file, StandardConstructor constructor) {

        YNode convert(Node node, int depth) throws ManifestException {
            Mark mark = mark(file, node.getStartMark());
            if (depth > MAX_DEPTH) throw new ManifestException(mark, "nesting deeper than " + MAX_DEPTH + " levels");
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
            if (node.getTag().equals(Tag.STR)) return node.getValue(); // most scalars; skips the constructor's work
            try {
                return constructor.constructSingleDocument(Optional.of(node));
            } catch (YamlEngineException e) {
                throw new ManifestException(mark, "invalid value '" + node.getValue() + "': " + e.getMessage());
            }
        }
    }
}
