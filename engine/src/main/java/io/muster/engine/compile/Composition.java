package io.muster.engine.compile;

import io.muster.engine.format.ForeignManifest;
import io.muster.engine.format.ManifestFormat;
import io.muster.engine.format.ManifestFormats;
import io.muster.engine.format.NativeManifest;
import io.muster.engine.graph.Collect;
import io.muster.engine.graph.Edge;
import io.muster.engine.graph.EdgeReason;
import io.muster.engine.graph.Origin;
import io.muster.engine.manifest.ManifestException;
import io.muster.engine.manifest.Mark;
import io.muster.engine.manifest.Problems;
import io.muster.engine.manifest.YNode;
import io.muster.engine.resource.AggregateKind;
import io.muster.engine.resource.InvalidResourceException;
import io.muster.engine.resource.Type;
import io.muster.engine.template.Lookup;
import io.muster.engine.template.Scope;
import io.muster.engine.template.TemplateException;
import io.muster.engine.util.Maps;
import io.muster.engine.util.Suggest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Reads a manifest and, through its aggregates ({@link AggregateKind}), the manifest of each one's members
 * (its child) into one list of declarations, each child's right after the aggregate that includes it; the
 * manifests a {@code nodes:} section ({@link NodesSection}) gives the host are {@code apply} resources after the
 * manifest's own. Every manifest has a scope of its own (its data, its directory), so nothing of a child reaches
 * its parent's other resources; a child's resources inherit the noop and health-check mode of the aggregates
 * above them, which a child can strengthen, never weaken. Nesting depth, cycles and
 * {@link AggregateKind#ALLOW_NESTING} are checked here, so they fail the compilation: nothing runs.
 */
final class Composition {
    private static final List<String> TOP_LEVEL = List.of("data", "hierarchy", "overrides", "resources", NodesSection.KEY,
            CollectBlocks.KEY);
    private static final String NODES_KIND = "apply";

    private final CompileOptions options;
    private final Problems problems;
    private final Path rootDirectory;
    private final List<Declaration> declarations = new ArrayList<>();
    private final Map<String, List<Declaration>> members = new LinkedHashMap<>();
    private final Set<Path> manifests = new LinkedHashSet<>();
    private final List<Collect> collects = new ArrayList<>();
    private final List<Edge> sequenceEdges = new ArrayList<>();

    /**
     * A manifest to read: the chain of real paths that led to it (for cycles), its origin, the data its
     * aggregate passes, and the aggregate that forbids it to include others (null when it may).
     */
    private record Level(Path file, List<Path> realChain, Origin origin, Map<String, Object> aggregateData, Declaration deniedBy) {}

    /** An aggregate's scope properties ({@link AggregateKind#schemaWith}), as its parent manifest renders them. */
    private record Settings(boolean noop, boolean healthCheckOnly, boolean allowNesting, Map<String, Object> data) {}

    Composition(CompileOptions options, Problems problems, Path root) {
        this.options = options;
        this.problems = problems;
        this.rootDirectory = root.toAbsolutePath().normalize().getParent();
    }

    /** All declarations of {@code root} and its children. The root's fatal problems are thrown, a child's collected. */
    List<Declaration> read(Path root) throws ManifestException {
        YNode.Dict top = top(root);
        readManifest(top, new Level(root, List.of(realPath(root)), Origin.root(label(root)), Map.of(), null));
        return declarations;
    }

    /** The direct members of each aggregate declaration, by its id. */
    Map<String, List<Declaration>> members() {
        return members;
    }

    /** The {@code collect:} blocks of every manifest read, in the order read. */
    List<Collect> collects() {
        return collects;
    }

    /**
     * The edges from each resource to the next of a manifest whose written order is its schedule, and those its
     * format made between its resources ({@link NativeManifest#edges()}).
     */
    List<Edge> sequenceEdges() {
        return sequenceEdges;
    }

    /** Every manifest read, absolute. */
    Set<Path> manifests() {
        return manifests;
    }

    private YNode.Dict top(Path file) throws ManifestException {
        YNode root = options.manifests().read(file);
        if (!(root instanceof YNode.Dict top)) {
            throw new ManifestException(root.mark(), "expected a manifest map with a 'resources:' list, got " + root.describe());
        }
        return top;
    }

    private List<Declaration> readManifest(YNode.Dict written, Level level) throws ManifestException {
        Path file = level.file().toAbsolutePath().normalize();
        NativeManifest manifest = translated(written, level, file);
        YNode.Dict top = manifest.manifest();
        for (YNode.Entry e : top.entries().values()) {
            if (!TOP_LEVEL.contains(e.key())) {
                problems.add(e.keyMark(), "unknown top-level key '" + e.key() + "'" + Suggest.hint(e.key(), TOP_LEVEL)
                        + "; expected " + String.join(", ", TOP_LEVEL));
            }
        }
        manifests.add(file);
        Path directory = file.getParent();
        Map<String, Object> facts = manifest.facts().orElse(options.facts());
        Map<String, String> env = manifest.env().orElse(options.env());
        Scope base = new Scope(Map.of(), facts, env, directory, Lookup.NONE, options.reads());
        Map<String, Object> data = manifest.resolvedData().isPresent() ? manifest.resolvedData().get()
                : DataResolver.resolve(top, base, level.aggregateData(), options.data());
        Scope scope = new Scope(data, facts, env, directory, Lookup.NONE, options.reads()).withDialect(manifest.dialect());
        Declarations reader = new Declarations(problems, scope, level.origin(), options.kinds());
        List<Declaration> own = reader.read(top.get("resources"));
        own.addAll(hostManifests(top.get(NodesSection.KEY), reader));
        collects.addAll(new CollectBlocks(scope, options.kinds(), problems).read(top.get(CollectBlocks.KEY)));
        manifest.sequence().ifPresent(reason -> inSequence(own, reason));
        manifest.edges().forEach(this::addFormatEdge);
        for (Declaration d : own) {
            declarations.add(d);
            if (d.kind() instanceof AggregateKind kind) members.put(d.id(), include(d, kind, level));
        }
        return own;
    }

    /**
     * A format's edge; one between two resources its sequence already joins replaces that edge, meaning both: a
     * dependent must learn of a change along one edge, or it may run before the refresh reaches it.
     */
    private void addFormatEdge(Edge edge) {
        for (int i = sequenceEdges.size() - 1; i >= 0; i--) {
            Edge joined = sequenceEdges.get(i);
            if (joined.from().equals(edge.from()) && joined.to().equals(edge.to())) {
                boolean blocks = joined.reason().blocksOnFailure() || edge.reason().blocksOnFailure();
                EdgeReason both = edge.reason().refreshes() ? (blocks ? EdgeReason.SUBSCRIBE : EdgeReason.REFRESH) : joined.reason();
                sequenceEdges.set(i, new Edge(edge.from(), edge.to(), both));
                return;
            }
        }
        sequenceEdges.add(edge);
    }

    private void inSequence(List<Declaration> own, EdgeReason reason) {
        for (int i = 1; i < own.size(); i++) sequenceEdges.add(new Edge(own.get(i - 1).id(), own.get(i).id(), reason));
    }

    /** The manifest in the native shape: as written, or as its format ({@link ManifestFormats}) translates it. */
    private NativeManifest translated(YNode.Dict written, Level level, Path file) throws ManifestException {
        Optional<ManifestFormat> format = ManifestFormats.of(written);
        if (format.isEmpty()) return NativeManifest.of(written);
        ForeignManifest source = new ForeignManifest(file, level.origin().chain().size() > 1, options.facts(), options.env(),
                level.aggregateData(), options.data(), options.kinds(), problems, options.reads());
        return format.get().translate(written, source);
    }

    /**
     * An {@code apply} resource for each manifest the {@code nodes:} section gives this host. One listed twice (two
     * patterns match, each listing it) is applied once, where it is first listed, as Salt applies a state that two
     * matches of its top file list once: both patterns mean "this host needs it", not "run it twice".
     */
    private List<Declaration> hostManifests(YNode section, Declarations reader) {
        List<YNode.Scalar> paths = NodesSection.manifests(section, options::host, problems);
        if (paths.isEmpty()) return List.of();
        AggregateKind apply = (AggregateKind) options.kinds().get(NODES_KIND);
        Set<Object> listed = new HashSet<>();
        List<Declaration> applies = new ArrayList<>();
        for (Declaration d : reader.bare(apply, paths)) {
            if (listed.add(manifestOf(d, apply))) applies.add(d);
        }
        return applies;
    }

    /** The manifest an aggregate includes, or its id when it names none: {@link #include} reports that. */
    private static Object manifestOf(Declaration aggregate, AggregateKind kind) {
        try {
            return kind.members(aggregate.name(), aggregate.scope().directory());
        } catch (InvalidResourceException e) {
            return aggregate.id();
        }
    }

    /** Reads the child manifest of {@code aggregate}; its declarations, or none when it cannot be included. */
    private List<Declaration> include(Declaration aggregate, AggregateKind kind, Level parent) {
        if (parent.deniedBy() != null) {
            Declaration denying = parent.deniedBy();
            problems.add(aggregate.mark(), aggregate.id() + ": this manifest may not apply others: " + denying.id() + " ("
                    + where(denying.mark()) + ") sets " + AggregateKind.ALLOW_NESTING + ": false");
            return List.of();
        }
        Path file;
        try {
            file = kind.members(aggregate.name(), aggregate.scope().directory());
        } catch (InvalidResourceException e) {
            problems.add(aggregate.mark(), aggregate.id() + ": " + e.getMessage());
            return List.of();
        }
        if (!Files.isRegularFile(file)) {
            problems.add(aggregate.mark(), aggregate.id() + ": no manifest at " + file);
            return List.of();
        }
        Path real = realPath(file);
        List<String> chain = new ArrayList<>(parent.origin().chain());
        chain.add(label(file));
        if (parent.realChain().contains(real)) {
            problems.add(aggregate.mark(), aggregate.id() + ": " + kind.name() + " cycle: " + String.join(" -> ", chain));
            return List.of();
        }
        if (chain.size() > options.maxApplyDepth()) {
            problems.add(aggregate.mark(), aggregate.id() + ": manifests nested " + chain.size() + " deep, more than the "
                    + options.maxApplyDepth() + " allowed (--max-apply-depth): " + String.join(" -> ", chain));
            return List.of();
        }
        Optional<Settings> read = settings(aggregate);
        if (read.isEmpty()) return List.of();
        Settings settings = read.get();
        List<Path> realChain = new ArrayList<>(parent.realChain());
        realChain.add(real);
        Origin origin = parent.origin().child(label(file), settings.noop(), settings.healthCheckOnly());
        Level child = new Level(file, realChain, origin, settings.data(), settings.allowNesting() ? null : aggregate);
        try {
            return readManifest(top(file), child);
        } catch (ManifestException e) {
            problems.addAll(e.problems());
            return List.of();
        }
    }

    /**
     * The aggregate's scope properties, rendered with its manifest's data. Empty when one is invalid: the vertex
     * builder reports that with the resource's other problems. The child is compiled before anything runs, so a
     * lookup of another resource has no value to give yet.
     */
    private Optional<Settings> settings(Declaration aggregate) {
        Scope scope = aggregate.scope().withLookup(reference -> {
            throw new ReadsResources("lookup('" + reference + "'): " + withArticle(aggregate.kind().name())
                    + " resource's settings cannot read other resources; the child manifest is compiled before anything runs");
        });
        try {
            Optional<Boolean> noop = bool(aggregate, AggregateKind.NOOP, false, scope);
            Optional<Boolean> healthCheckOnly = bool(aggregate, AggregateKind.HEALTH_CHECK_ONLY, false, scope);
            Optional<Boolean> allowNesting = bool(aggregate, AggregateKind.ALLOW_NESTING, true, scope);
            Object data = value(aggregate, AggregateKind.DATA, Map.of(), scope);
            if (noop.isEmpty() || healthCheckOnly.isEmpty() || allowNesting.isEmpty() || !(data instanceof Map<?, ?> map)) {
                return Optional.empty();
            }
            return Optional.of(new Settings(noop.get() || metaNoop(aggregate), healthCheckOnly.get(), allowNesting.get(), Maps.cast(map)));
        } catch (ReadsResources e) {
            problems.add(aggregate.mark(), aggregate.id() + ": " + e.getMessage());
            return Optional.empty();
        } catch (TemplateException e) {
            return Optional.empty();
        }
    }

    /** The one settings problem the vertex builder cannot see: it allows lookups. */
    private static final class ReadsResources extends TemplateException {
        ReadsResources(String message) {
            super(message);
        }
    }

    private static String withArticle(String noun) {
        return ("aeiou".indexOf(noun.charAt(0)) >= 0 ? "an " : "a ") + noun;
    }

    /** {@code meta: {noop: true}} on the aggregate puts its whole child in noop, like {@code noop: true}. */
    private static boolean metaNoop(Declaration aggregate) {
        YNode.Entry meta = aggregate.properties().get("meta");
        return meta != null && meta.value() instanceof YNode.Dict dict && dict.get("noop") != null
                && Boolean.TRUE.equals(Type.BOOLEAN.tryConvert(dict.get("noop").plain()));
    }

    /** The property as a boolean; empty when it is none. */
    private static Optional<Boolean> bool(Declaration aggregate, String property, boolean fallback, Scope scope) {
        return Type.BOOLEAN.tryConvert(value(aggregate, property, fallback, scope)) instanceof Boolean b ? Optional.of(b) : Optional.empty();
    }

    private static Object value(Declaration aggregate, String property, Object fallback, Scope scope) {
        YNode.Entry entry = aggregate.properties().get(property);
        return entry == null ? fallback : Rendering.render(entry.value().plain(), scope);
    }

    /** A manifest as users see it in messages: relative to the directory of the manifest given. */
    private String label(Path file) {
        Path absolute = file.toAbsolutePath().normalize();
        return rootDirectory == null ? absolute.toString() : rootDirectory.relativize(absolute).toString();
    }

    private String where(Mark mark) {
        return label(mark.file()) + ":" + mark.line();
    }

    private static Path realPath(Path file) {
        try {
            return file.toRealPath();
        } catch (IOException e) {
            return file.toAbsolutePath().normalize(); // not readable: YamlReader says why
        }
    }
}
