package io.muster.engine.manifest;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.snakeyaml.engine.v2.api.LoadSettings;
import org.snakeyaml.engine.v2.events.AliasEvent;
import org.snakeyaml.engine.v2.events.CollectionStartEvent;
import org.snakeyaml.engine.v2.events.Event;
import org.snakeyaml.engine.v2.events.NodeEvent;
import org.snakeyaml.engine.v2.parser.Parser;
import org.snakeyaml.engine.v2.parser.ParserImpl;
import org.snakeyaml.engine.v2.scanner.StreamReader;

/**
 * Stops a YAML event stream at the first list or map nested deeper than {@code maxDepth}, or the first alias
 * of a list or map past {@code maxAliases}, pointing at it. snakeyaml-engine's composer recurses once per
 * level (a manifest 2000 deep overflows the stack) and has no depth limit of its own; its alias limit
 * names no position. Checking events as the composer takes them stops it before it recurses too deep.
 */
public final class LimitedParser implements Parser {
    private final Parser parser;
    private final int maxDepth;
    private final int maxAliases;
    /** Anchors seen so far: true for a list or map, false for a scalar (anchors may be redefined). */
    private final Map<String, Boolean> collectionAnchors = new HashMap<>();
    private int depth;
    private int aliases;

    private LimitedParser(Parser parser, int maxDepth, int maxAliases) {
        this.parser = parser;
        this.maxDepth = maxDepth;
        this.maxAliases = maxAliases;
    }

    /** A parser of {@code text} within the limits of a manifest (depth and aliases; see {@link YamlReader}). */
    public static LimitedParser of(LoadSettings settings, String text) {
        return new LimitedParser(new ParserImpl(settings, new StreamReader(settings, text)), YamlReader.MAX_DEPTH, YamlReader.MAX_ALIASES);
    }

    /** A limit a manifest went past, with where it did. */
    public static final class Exceeded extends RuntimeException {
        private final Optional<org.snakeyaml.engine.v2.exceptions.Mark> mark;

        Exceeded(Optional<org.snakeyaml.engine.v2.exceptions.Mark> mark, String message) {
            super(message);
            this.mark = mark;
        }

        /** Where the limit was passed. */
        public Optional<org.snakeyaml.engine.v2.exceptions.Mark> mark() {
            return mark;
        }
    }

    @Override
    public Event next() {
        Event event = parser.next();
        switch (event.getEventId()) {
            case SequenceStart, MappingStart -> {
                if (++depth > maxDepth) {
                    throw new Exceeded(event.getStartMark(), "nested deeper than " + maxDepth + " levels (the limit)");
                }
                remember((CollectionStartEvent) event, true);
            }
            case SequenceEnd, MappingEnd -> depth--;
            case Scalar -> remember((NodeEvent) event, false);
            case Alias -> {
                if (Boolean.TRUE.equals(collectionAnchors.get(((AliasEvent) event).getAlias().getValue())) && ++aliases > maxAliases) {
                    throw new Exceeded(event.getStartMark(), "more than " + maxAliases + " aliases of lists and maps (the limit)");
                }
            }
            default -> {}
        }
        return event;
    }

    private void remember(NodeEvent event, boolean collection) {
        event.getAnchor().ifPresent(anchor -> collectionAnchors.put(anchor.getValue(), collection));
    }

    @Override
    public boolean checkEvent(Event.ID id) {
        return parser.checkEvent(id);
    }

    @Override
    public Event peekEvent() {
        return parser.peekEvent();
    }

    @Override
    public boolean hasNext() {
        return parser.hasNext();
    }
}
