package io.muster.engine.codec;

import com.google.protobuf.InvalidProtocolBufferException;
import io.muster.engine.graph.Bundle;
import io.muster.engine.graph.Collect;
import io.muster.engine.graph.Edge;
import io.muster.engine.graph.EdgeReason;
import io.muster.engine.graph.Graph;
import io.muster.engine.graph.Origin;
import io.muster.engine.graph.Vertex;
import io.muster.engine.health.HealthCheck;
import io.muster.engine.health.goss.Gossfile;
import io.muster.engine.manifest.Mark;
import io.muster.engine.resource.Kinds;
import io.muster.engine.resource.Params;
import io.muster.engine.resource.Property;
import io.muster.engine.resource.ResourceKind;
import io.muster.engine.template.Expressions;
import io.muster.engine.template.Redaction;
import io.muster.engine.template.ScopeTable;
import io.muster.engine.template.Template;
import io.muster.engine.template.TemplateDialect;
import io.muster.engine.template.TemplateException;
import io.muster.engine.util.Json;
import io.muster.proto.graph.BundleFile;
import io.muster.proto.graph.Condition;
import io.muster.proto.graph.Meta;
import io.muster.proto.graph.PropertyMark;
import io.muster.proto.graph.Variable;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import java.util.stream.IntStream;

/**
 * A graph message made a runnable graph again, checked as it is read: each kind must be known here, each
 * parameter must fit its kind's schema, each condition must parse, each index (manifest, scope table) and each
 * edge must point at something that exists. Whatever is wrong is an {@link InvalidGraphException} naming it.
 */
final class GraphDecoder {
    /** Graphs smaller than this are decoded on the calling thread: handing work to another core costs more. */
    private static final int PARALLEL_FROM = 1024;
    private static final int MAX_PARTS = 4;

    private final GraphMessage read;
    private final io.muster.proto.graph.Graph message;
    private final Kinds kinds;
    private final Bundle bundle;
    private final List<Path> manifests = new ArrayList<>();
    private final List<ScopeTable> tables = new ArrayList<>();
    /** Each scope table's directory, resolved once rather than for each of its vertices. */
    private final List<Path> directories = new ArrayList<>();

    private GraphDecoder(GraphMessage read, Bundle bundle, Kinds kinds) {
        this.read = read;
        this.message = read.rest();
        this.bundle = bundle;
        this.kinds = kinds;
    }

    /** @throws InvalidProtocolBufferException when a vertex is not a message (the rest was read whole) */
    static Graph decode(GraphMessage read, Path root, Kinds kinds) throws InvalidGraphException, InvalidProtocolBufferException {
        return new GraphDecoder(read, bundle(read.rest(), root), kinds).graph();
    }

    private static Bundle bundle(io.muster.proto.graph.Graph message, Path root) throws InvalidGraphException {
        Map<String, String> files = new LinkedHashMap<>();
        for (BundleFile file : message.getBundleFilesList()) {
            relative(file.getPath(), "bundle file");
            if (!file.getSha256().matches("[0-9a-f]{64}")) {
                throw new InvalidGraphException("bundle file " + file.getPath() + ": '" + file.getSha256() + "' is not a sha256");
            }
            if (files.put(file.getPath(), file.getSha256()) != null) throw new InvalidGraphException("bundle file " + file.getPath() + " twice");
        }
        Set<String> directories = new LinkedHashSet<>();
        for (String directory : message.getDirectoriesList()) {
            if (!directories.add(relative(directory, "directory"))) throw new InvalidGraphException("directory " + directory + " twice");
        }
        return new Bundle(root.toAbsolutePath().normalize(), files, directories);
    }

    private Graph graph() throws InvalidGraphException, InvalidProtocolBufferException {
        for (String manifest : message.getManifestsList()) manifests.add(bundle.root().resolve(relative(manifest, "manifest")).normalize());
        for (io.muster.proto.graph.ScopeTable table : message.getScopesList()) tables.add(table(table));
        for (ScopeTable table : tables) directories.add(bundle.directory(table.directory()));
        List<Vertex> vertices = vertices(read.vertices());
        List<Edge> edges = new ArrayList<>();
        for (io.muster.proto.graph.Edge e : message.getEdgesList()) edges.add(edge(e));
        List<Collect> collects = new ArrayList<>();
        for (io.muster.proto.graph.Collect c : message.getCollectsList()) collects.add(collect(c));
        try {
            return new Graph(vertices, edges).compiledFrom(Set.of(), bundle).collecting(collects);
        } catch (IllegalArgumentException e) {
            throw new InvalidGraphException(e.getMessage());
        }
    }

    /**
     * The vertices, decoded on up to {@link #MAX_PARTS} cores when there are many (a 10,000-file graph read from the
     * cache spends a third of a one-shot apply here), each part a run of consecutive vertices; the error of the
     * first failing vertex in order is the one thrown, as a decode on one core would.
     */
    private List<Vertex> vertices(List<GraphMessage.VertexBytes> all) throws InvalidGraphException, InvalidProtocolBufferException {
        int parts = all.size() < PARALLEL_FROM ? 1 : Math.min(MAX_PARTS, Runtime.getRuntime().availableProcessors());
        if (parts <= 1) return vertices(all, 0, all.size());
        List<Part> decoded = IntStream.range(0, parts).parallel()
                .mapToObj(p -> part(all, all.size() * p / parts, all.size() * (p + 1) / parts)).toList();
        List<Vertex> vertices = new ArrayList<>(all.size());
        for (Part part : decoded) {
            switch (part.failure()) {
                case null -> vertices.addAll(part.vertices());
                case InvalidGraphException e -> throw e;
                case InvalidProtocolBufferException e -> throw e;
                case RuntimeException e -> throw e;
                default -> throw new IllegalStateException(part.failure());
            }
        }
        return vertices;
    }

    /** Decoded vertices of one part, or why one of them could not be. */
    private record Part(List<Vertex> vertices, Exception failure) {}

    private Part part(List<GraphMessage.VertexBytes> all, int from, int to) {
        try {
            return new Part(vertices(all, from, to), null);
        } catch (InvalidGraphException | InvalidProtocolBufferException | RuntimeException e) {
            return new Part(null, e);
        }
    }

    private List<Vertex> vertices(List<GraphMessage.VertexBytes> all, int from, int to) throws InvalidGraphException, InvalidProtocolBufferException {
        List<Vertex> vertices = new ArrayList<>(to - from);
        for (int i = from; i < to; i++) vertices.add(vertex(all.get(i).parse(), "vertex " + (i + 1)));
        return vertices;
    }

    /** A {@code collect:} block: its kind known here, its {@code where} values of that kind's types. */
    private Collect collect(io.muster.proto.graph.Collect c) throws InvalidGraphException {
        String where = "collect of " + c.getKind();
        ResourceKind kind = kinds.get(c.getKind());
        if (kind == null) throw new InvalidGraphException(where + ": unknown resource kind; this host knows " + String.join(", ", kinds.names()));
        for (String allowed : c.getAllowKindsList()) {
            if (kinds.get(allowed) == null) throw new InvalidGraphException(where + ": allow.kinds: unknown resource kind '" + allowed + "'");
        }
        if (!c.hasMeta()) throw new InvalidGraphException(where + ": no meta");
        try {
            return new Collect(kind.name(), c.getTagsList(), c.getFromList(), params(kind, PlainCodec.decodeMap(c.getWhere(), where + ": where"), where),
                    c.getAllowPathsList(), c.getAllowKindsList(), meta(c.getMeta(), where), mark(c.getMark(), () -> where));
        } catch (IllegalArgumentException e) {
            throw new InvalidGraphException(where + ": " + e.getMessage());
        }
    }

    private static Edge edge(io.muster.proto.graph.Edge e) throws InvalidGraphException {
        if (e.getReason() == io.muster.proto.graph.EdgeReason.EDGE_REASON_UNSPECIFIED
                || e.getReason() == io.muster.proto.graph.EdgeReason.UNRECOGNIZED) {
            throw new InvalidGraphException("edge " + e.getFrom() + " -> " + e.getTo() + ": no known reason (" + e.getReasonValue() + ")");
        }
        return new Edge(e.getFrom(), e.getTo(), EdgeReason.valueOf(e.getReason().name()));
    }

    private ScopeTable table(io.muster.proto.graph.ScopeTable table) throws InvalidGraphException {
        String where = "scope table of " + (table.getDirectory().isEmpty() ? "the bundle's directory" : table.getDirectory());
        Map<String, String> env = new LinkedHashMap<>();
        for (Variable variable : table.getEnvList()) {
            if (env.put(variable.getName(), variable.getValue()) != null) {
                throw new InvalidGraphException(where + ": the environment variable " + variable.getName() + " twice");
            }
        }
        TemplateDialect dialect = TemplateDialect.named(table.getDialect()).orElseThrow(() -> new InvalidGraphException(where
                + ": unknown template dialect '" + table.getDialect() + "'"));
        return new ScopeTable(relative(table.getDirectory(), where), PlainCodec.decodeMap(table.getData(), where + ": data"),
                PlainCodec.decodeMap(table.getFacts(), where + ": facts"), env, dialect);
    }

    private Vertex vertex(io.muster.proto.graph.Vertex v, String where) throws InvalidGraphException {
        ResourceKind kind = kinds.get(v.getKind());
        if (kind == null) {
            throw new InvalidGraphException(where + " (" + v.getKind() + "#" + v.getName() + "): unknown resource kind '" + v.getKind()
                    + "'; this host knows " + String.join(", ", kinds.names()));
        }
        String id = kind.name() + "#" + v.getName();
        if (v.getName().isEmpty()) throw new InvalidGraphException(where + " (" + id + "): no name");
        // what each part is, for errors, is said only on an error: building it for every vertex cost a tenth of a decode
        ScopeTable table = index(tables, v.getScope(), () -> id + ": scope table");
        Params params = new Params(v.getName(), params(kind, PlainCodec.decodeMap(v.getParams(), () -> id + ": params"), id),
                directories.get(v.getScope()));
        Map<String, Object> late = v.getLate().getEntriesCount() == 0 ? Map.of() : PlainCodec.decodeMap(v.getLate(), () -> id + ": late");
        for (String property : late.keySet()) property(kind, property, id);
        Map<String, Mark> propertyMarks = LinkedHashMap.newLinkedHashMap(v.getPropertyMarksCount());
        for (PropertyMark m : v.getPropertyMarksList()) propertyMarks.put(m.getProperty(), mark(m.getMark(), () -> id + ": " + m.getProperty()));
        Vertex.Control control = new Vertex.Control(v.hasOnlyIf() ? condition(v.getOnlyIf(), id + ": control.if") : null,
                v.hasUnless() ? condition(v.getUnless(), id + ": control.unless") : null);
        if (!v.hasMeta()) throw new InvalidGraphException(id + ": no meta");
        if (v.getOrigin().getChainCount() == 0) throw new InvalidGraphException(id + ": no origin");
        Origin origin = new Origin(v.getOrigin().getChainList(), v.getOrigin().getNoop(), v.getOrigin().getHealthCheckOnly());
        List<HealthCheck> checks = new ArrayList<>();
        for (io.muster.proto.graph.HealthCheck check : v.getHealthChecksList()) checks.add(healthCheck(check, id));
        Redaction received = new Redaction();
        v.getReceivedList().forEach(received::add);
        List<Vertex> grouped = new ArrayList<>();
        for (io.muster.proto.graph.Vertex member : v.getGroupedList()) {
            if (member.getGroupedCount() > 0) throw new InvalidGraphException(id + ": a member of its group has members of its own");
            grouped.add(vertex(member, id + ": member"));
        }
        try {
            return new Vertex(id, kind, params, late, mark(v.getMark(), () -> id), propertyMarks, control, meta(v.getMeta(), id),
                    v.getTagsList(), table, origin, checks, received, grouped);
        } catch (IllegalArgumentException | NullPointerException e) {
            throw new InvalidGraphException(id + ": " + e.getMessage());
        }
    }

    /** Each parameter as its kind's schema reads it: known, and of its type. */
    private static Map<String, Object> params(ResourceKind kind, Map<String, Object> raw, String id) throws InvalidGraphException {
        Map<String, Object> values = new LinkedHashMap<>();
        for (Map.Entry<String, Object> e : raw.entrySet()) {
            Property property = property(kind, e.getKey(), id);
            try {
                values.put(e.getKey(), property.coerce(e.getValue()));
            } catch (IllegalArgumentException ex) {
                throw new InvalidGraphException(id + ": " + ex.getMessage());
            }
        }
        return values;
    }

    private static Property property(ResourceKind kind, String name, String id) throws InvalidGraphException {
        Property property = kind.schema().property(name);
        if (property == null) throw new InvalidGraphException(id + ": " + kind.name() + " has no property '" + name + "'");
        return property;
    }

    private Vertex.Condition condition(Condition condition, String where) throws InvalidGraphException {
        String source = condition.getSource();
        try {
            if (Template.containsExpression(source)) Template.parse(source);
            else Expressions.parse(source);
        } catch (TemplateException e) {
            throw new InvalidGraphException(where + ": " + e.getMessage());
        }
        return new Vertex.Condition(source, mark(condition.getMark(), () -> where));
    }

    private Mark mark(io.muster.proto.graph.Mark mark, Supplier<String> where) throws InvalidGraphException {
        if (mark.getLine() < 1 || mark.getColumn() < 1) throw new InvalidGraphException(where.get() + ": a mark without line and column");
        return new Mark(index(manifests, mark.getManifest(), () -> where.get() + ": manifest"), mark.getLine(), mark.getColumn());
    }

    private static Vertex.Meta meta(Meta meta, String id) throws InvalidGraphException {
        if (meta.getRetry() < -1 || meta.getDelayMs() < 0 || meta.getPollSeconds() < 0 || meta.getBurst() < 0 || !(meta.getLimit() > 0)) {
            throw new InvalidGraphException(id + ": meta out of range: " + meta.toString().replace('\n', ' ').strip());
        }
        return new Vertex.Meta(meta.getNoop(), meta.getRetry(), meta.getDelayMs(), meta.getPollSeconds(), meta.getLimit(),
                meta.getBurst(), meta.getSemaList(), meta.getRewatch(), meta.getRealize(), meta.getReverse(), meta.getAutoedge(),
                meta.getAutogroup(), meta.hasExport() ? new Vertex.Export(meta.getExport().getToList(), meta.getExport().getTagsList()) : null);
    }

    private static HealthCheck healthCheck(io.muster.proto.graph.HealthCheck check, String id) throws InvalidGraphException {
        if (check.getTries() < 1 || check.getTrySleepNanos() < 0 || check.getTimeoutNanos() < 0
                || check.getCommand().isBlank() == check.getGoss().isEmpty()) {
            throw new InvalidGraphException(id + ": health check '" + check.getName() + "' out of range");
        }
        if (!check.getGoss().isEmpty()) {
            try {
                Gossfile.of(Json.parse(check.getGoss()));
            } catch (IllegalArgumentException e) {
                throw new InvalidGraphException(id + ": health check '" + check.getName() + "': goss: " + e.getMessage());
            }
        }
        return new HealthCheck(check.getName(), check.getCommand(), check.getGoss(), check.getTries(), Duration.ofNanos(check.getTrySleepNanos()),
                Duration.ofNanos(check.getTimeoutNanos()));
    }

    private static <T> T index(List<T> items, int index, Supplier<String> where) throws InvalidGraphException {
        if (index < 0 || index >= items.size()) {
            throw new InvalidGraphException(where.get() + ": index " + Integer.toUnsignedString(index) + " of " + items.size());
        }
        return items.get(index);
    }

    /** {@code path}, which must be relative: everything a graph names of the bundle is. */
    private static String relative(String path, String what) throws InvalidGraphException {
        if (path.contains("\0") || Path.of(path).isAbsolute()) throw new InvalidGraphException(what + " '" + path + "': expected a path relative to the bundle");
        return path;
    }
}
