package io.muster.engine.resource.document;

import io.muster.engine.manifest.YNode;
import io.muster.engine.util.Json;
import io.muster.engine.util.Maps;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.snakeyaml.engine.v2.api.Dump;
import org.snakeyaml.engine.v2.api.DumpSettings;
import org.snakeyaml.engine.v2.api.Load;
import org.snakeyaml.engine.v2.api.LoadSettings;
import org.snakeyaml.engine.v2.common.FlowStyle;
import org.snakeyaml.engine.v2.common.NonPrintableStyle;
import org.snakeyaml.engine.v2.exceptions.MarkedYamlEngineException;
import org.snakeyaml.engine.v2.exceptions.YamlEngineException;
import org.snakeyaml.engine.v2.schema.CoreSchema;

/**
 * How a document is read from and written to text. Reading gives maps with string keys in file order;
 * an empty file (or, in YAML, one of only comments) is an empty document. Writing is canonical: JSON
 * pretty-printed with two spaces, YAML in block style; both end with a newline.
 */
enum DocumentFormat {
    JSON {
        @Override
        Object parse(String text) {
            return text.isBlank() ? null : Json.parse(text);
        }

        @Override
        String render(Map<String, Object> document) {
            return Json.pretty(document) + "\n";
        }
    },
    YAML {
        /** The core schema, as manifests use: {@code 0644} is a number, quoted {@code '0644'} a string. */
        private static final LoadSettings LOAD = LoadSettings.builder().setSchema(new CoreSchema()).build();
        /**
         * Block style with indented lists; lines never folded; shared values written out, not as aliases;
         * control characters escaped in quotes rather than turning the string into {@code !!binary}.
         */
        private static final DumpSettings DUMP = DumpSettings.builder()
                .setSchema(new CoreSchema())
                .setDefaultFlowStyle(FlowStyle.BLOCK)
                .setIndent(2)
                .setIndicatorIndent(2)
                .setIndentWithIndicator(true)
                .setSplitLines(false)
                .setDereferenceAliases(true)
                .setNonPrintableStyle(NonPrintableStyle.ESCAPE)
                .build();

        @Override
        Object parse(String text) {
            List<Object> documents = new ArrayList<>(1);
            try {
                new Load(LOAD).loadAllFromString(text).forEach(documents::add);
            } catch (MarkedYamlEngineException e) {
                String at = e.getProblemMark().or(e::getContextMark)
                        .map(m -> "line " + (m.getLine() + 1) + " column " + (m.getColumn() + 1) + ": ").orElse("");
                throw new IllegalArgumentException(at + e.getProblem());
            } catch (YamlEngineException e) {
                throw new IllegalArgumentException(e.getMessage());
            }
            if (documents.size() > 1) {
                throw new IllegalArgumentException("expected one YAML document, found " + documents.size());
            }
            return documents.isEmpty() ? null : Values.plain(documents.get(0));
        }

        @Override
        String render(Map<String, Object> document) {
            return new Dump(DUMP).dumpToString(document);
        }
    };

    /**
     * The map of fields in {@code bytes}, empty for an empty document.
     *
     * @throws IllegalArgumentException saying why the bytes are not such a document, and where
     */
    Map<String, Object> read(byte[] bytes) {
        String text;
        try {
            text = StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException e) {
            throw new IllegalArgumentException("not UTF-8 text, so not " + name());
        }
        Object document;
        try {
            document = parse(text);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("not valid " + name() + ": " + e.getMessage());
        }
        if (document == null) return Map.of();
        if (document instanceof Map<?, ?> map) return Maps.cast(map);
        throw new IllegalArgumentException("expected a map of fields at the top of the " + name() + " document, found "
                + YNode.describeValue(document));
    }

    /** The value in {@code text}, or null when there is none; throws IllegalArgumentException saying where it is invalid. */
    abstract Object parse(String text);

    abstract String render(Map<String, Object> document);

    /** The format an extension names ({@code .json}, {@code .yaml}, {@code .yml}), or null. */
    static DocumentFormat byExtension(String fileName) {
        String lower = fileName.toLowerCase(Locale.ROOT);
        if (lower.endsWith(".json")) return JSON;
        if (lower.endsWith(".yaml") || lower.endsWith(".yml")) return YAML;
        return null;
    }
}
