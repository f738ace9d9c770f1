package io.muster.engine.compile;

import io.muster.engine.graph.Edge;
import io.muster.engine.graph.EdgeReason;
import io.muster.engine.graph.Vertex;
import io.muster.engine.health.HealthCheck;
import io.muster.engine.manifest.Mark;
import io.muster.engine.manifest.Problems;
import io.muster.engine.manifest.YNode;
import io.muster.engine.resource.AggregateKind;
import io.muster.engine.resource.InvalidResourceException;
import io.muster.engine.resource.Kinds;
import io.muster.engine.resource.Params;
import io.muster.engine.resource.Property;
import io.muster.engine.resource.Resource;
import io.muster.engine.resource.Schema;
import io.muster.engine.resource.Type;
import io.muster.engine.template.Redaction;
import io.muster.engine.template.Scope;
import io.muster.engine.template.ScopeTable;
import io.muster.engine.template.TemplateException;
import io.muster.engine.template.UnknownNameException;
import io.muster.engine.util.Suggest;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Turns declarations into vertices: renders and type-checks properties, resolves relations and
 * {@code lookup} references into edges, reads metaparams and control conditions, and builds each
 * resource once to validate it.
 */
final class VertexBuilder {
    private static final Set<String> CONTROL = Set.of("if", "unless");
    /** What a lookup of a run-time value returns while compiling; the property is rendered again at run time. */
    private static final String PENDING = "";

    private final Map<String, Declaration> byId;
    private final Kinds kinds;
    private final Problems problems;
    private final Map<String, String> aliases = new HashMap<>();
    /** Rendered properties by declaration id, so lookups between resources render each property once. */
    private final Map<String, Map<String, Rendered>> rendered = new HashMap<>();
    /** Properties ({@code id.name}) whose rendering failed, each reported once. */
    private final Set<String> invalid = new HashSet<>();
    private final Set<String> rendering = new HashSet<>();
    /** Declarations that read a declared value of a sensitive resource: their properties are sensitive too. */
    private final Set<String> readsSensitive = new HashSet<>();
    /** The sensitive values each declaration read or rendered, redacted from its error messages. */
    private final Map<String, Redaction> received = new HashMap<>();
    private final List<Edge> edges = new ArrayList<>();
    private final Map<String, Resource> instances = new LinkedHashMap<>();
    private final HealthCheckReader healthCheckReader;
    private final Path bundle;
    private Scope lastScope;
    private ScopeTable lastTable;

    /** A rendered property: its value, or the resources whose run-time values it waits for. */
    private record Rendered(Object value, Set<String> waitsFor) {
        boolean late() {
            return !waitsFor.isEmpty();
        }
    }

    /** @param bundle the root manifest's directory, which the vertices' manifest directories are named relative to */
    VertexBuilder(Map<String, Declaration> byId, Kinds kinds, Problems problems, Path bundle) {
        this.byId = byId;
        this.bundle = bundle;
        this.kinds = kinds;
        this.problems = problems;
        this.healthCheckReader = new HealthCheckReader(problems);
        for (Declaration d : byId.values()) readAlias(d);
    }

    List<Edge> edges() {
        return edges;
    }

    /** Resources that could be built at compile time (no late properties), for automatic edges. */
    Map<String, Resource> instances() {
        return instances;
    }

    /** The vertex of {@code d}; {@link Invalid} when it has problems, all of them reported. */
    Vertex build(Declaration d) throws Invalid {
        Schema schema = d.kind().schema();
        Map<String, Object> values = new LinkedHashMap<>();
        Map<String, Object> late = new LinkedHashMap<>();
        Map<String, Mark> marks = new LinkedHashMap<>();
        Invalid.Parts parts = new Invalid.Parts();
        for (YNode.Entry e : d.properties().values()) {
            marks.put(e.key(), e.value().mark());
            if (ManifestCompiler.COMMON.contains(e.key())) continue;
            if (schema.property(e.key()) == null) {
                Set<String> known = new TreeSet<>(schema.properties().keySet());
                known.addAll(ManifestCompiler.COMMON);
                problems.add(e.keyMark(), d.id() + ": unknown property '" + e.key() + "'" + Suggest.hint(e.key(), known));
                parts.invalid();
                continue;
            }
            if (d.scope().dialect().deferred(d.kind().name(), e.key(), e.value().plain())) { // the dialect renders it at run time
                late.put(e.key(), e.value().plain());
                continue;
            }
            Rendered r = parts.read(() -> property(d, e.key()));
            if (r == null) continue;
            if (r.late()) {
                late.put(e.key(), e.value().plain());
                for (String producer : r.waitsFor()) addLookupEdge(producer, d);
            } else values.put(e.key(), r.value());
        }
        if (readsSensitive.contains(d.id()) && schema.property("sensitive") != null) values.put("sensitive", true);
        if (schema.nameProperty() != null && !d.properties().containsKey(schema.nameProperty())) {
            values.put(schema.nameProperty(), d.name());
        }
        for (Property p : schema.properties().values()) {
            if (p.required() && !values.containsKey(p.name()) && !d.properties().containsKey(p.name())) {
                problems.add(d.mark(), d.id() + ": missing required property '" + p.name() + "'");
                parts.invalid();
            }
        }
        relations(d);
        Vertex.Meta meta = parts.read(() -> MetaParams.read(d, problems));
        Vertex.Control control = parts.read(() -> control(d));
        List<String> tags = parts.read(() -> tags(d));
        List<HealthCheck> healthChecks = parts.read(() -> healthCheckReader.read(d));
        if (!aggregateOk(d)) parts.invalid();
        parts.throwIfAny();
        // an aggregate above it runs in noop: the resource's own noop: false cannot weaken that
        if (d.origin().noop()) meta = meta.withNoop();
        Params params = new Params(d.name(), values, d.scope().directory());
        if (late.isEmpty()) instantiate(d, params, marks);
        else standIn(d, params);
        return new Vertex(d.id(), d.kind(), params, late, d.mark(), marks, control, meta, tags, table(d.scope()), d.origin(), healthChecks,
                received(d), List.of());
    }

    /** The table of {@code scope}'s manifest, made once for its declarations, which come one after another. */
    private ScopeTable table(Scope scope) {
        if (scope != lastScope) {
            lastScope = scope;
            lastTable = ScopeTable.of(ScopeTables.relative(bundle, scope.directory()), scope.data(), scope.dialect());
        }
        return lastTable;
    }

    /**
     * An aggregate's members run before it decides anything, so a condition on it could not stop them; and its
     * outcome is its members', so health checks belong on them.
     */
    private boolean aggregateOk(Declaration d) {
        if (!(d.kind() instanceof AggregateKind)) return true;
        boolean ok = true;
        for (String property : List.of("control", "health_checks")) {
            YNode.Entry e = d.properties().get(property);
            if (e == null) continue;
            problems.add(e.keyMark(), d.id() + ": " + property + " is not supported on " + d.kind().name()
                    + " resources; put it on the child manifest's resources");
            ok = false;
        }
        return ok;
    }

    private void instantiate(Declaration d, Params params, Map<String, Mark> marks) {
        try {
            Resource resource = d.kind().create(params);
            resource.validate();
            instances.put(d.id(), resource);
        } catch (InvalidResourceException e) {
            Mark mark = e.property() == null ? d.mark() : marks.getOrDefault(e.property(), d.mark());
            problems.add(mark, d.id() + ": " + received(d).redact((e.property() == null ? "" : e.property() + ": ") + e.getMessage()));
        } catch (InvalidPathException e) { // a kind's other paths (a file's source) with a NUL
            problems.add(d.mark(), d.id() + ": " + received(d).redact("invalid path '" + e.getInput() + "': " + e.getReason()));
        }
    }

    /**
     * A resource with late properties is validated when it runs; for automatic edges, an instance built
     * from its compile-time properties alone stands in (a file whose content comes from an exec still has
     * a known path). When even that cannot be built, it gets no automatic edges.
     */
    private void standIn(Declaration d, Params known) {
        try {
            instances.put(d.id(), d.kind().create(known));
        } catch (InvalidResourceException | RuntimeException e) {
            // a late property is needed to build it: no automatic edges
        }
    }

    /**
     * Renders one property (memoized, so lookups between resources render each property once); {@link Invalid}
     * when it is wrong, reported the first time.
     */
    private Rendered property(Declaration d, String name) throws Invalid {
        Map<String, Rendered> ofDeclaration = rendered.computeIfAbsent(d.id(), k -> new HashMap<>());
        String key = d.id() + "." + name;
        if (invalid.contains(key)) throw new Invalid();
        if (ofDeclaration.containsKey(name)) return ofDeclaration.get(name);
        YNode.Entry entry = d.properties().get(name);
        if (!rendering.add(key)) {
            throw new TemplateException("lookup cycle: " + d.id() + "." + name + " depends on itself");
        }
        try {
            Set<String> waitsFor = new LinkedHashSet<>();
            Redaction secrets = new Redaction();
            Scope scope = d.scope().withLookup(reference -> resourceValue(d, reference, waitsFor, secrets));
            Object value;
            try {
                value = Rendering.render(entry.value().plain(), scope);
            } catch (TemplateException e) {
                if (waitsFor.isEmpty()) throw e;
                value = null; // evaluated with a placeholder; the real value comes at run time
            }
            if (!secrets.isEmpty()) { // rendered from a secret
                secrets.add(value);
                received(d).addAll(secrets);
            }
            if (waitsFor.contains(d.id())) {
                throw new TemplateException("reads its own run-time value; a resource cannot depend on itself");
            }
            Rendered r = waitsFor.isEmpty()
                    ? new Rendered(d.kind().schema().property(name).coerce(value), Set.of())
                    : new Rendered(null, waitsFor);
            ofDeclaration.put(name, r);
            return r;
        } catch (TemplateException | IllegalArgumentException e) {
            String message = e instanceof IllegalArgumentException ? e.getMessage() : name + ": " + e.getMessage();
            problems.add(entry.value().mark(), d.id() + ": " + received(d).redact(message));
            invalid.add(key);
            throw new Invalid();
        } finally {
            rendering.remove(key);
        }
    }

    /**
     * Compile-time {@code lookup('kind#name.field')} by {@code consumer}: a declared value now, or a run-time
     * value later (whose sensitivity the run judges).
     */
    private Object resourceValue(Declaration consumer, String reference, Set<String> waitsFor, Redaction secrets) {
        ResourceReference ref = ResourceReference.parse(reference, byId.keySet());
        if (ref == null) {
            String id = reference.contains(".") ? reference.substring(0, reference.lastIndexOf('.')) : reference;
            throw new UnknownNameException("lookup('" + reference + "'): no resource " + id + Suggest.hint(id, byId.keySet())
                    + "; expected kind#name.field");
        }
        Declaration target = byId.get(ref.id());
        Schema schema = target.kind().schema();
        if (target.properties().containsKey(ref.field()) && !ManifestCompiler.COMMON.contains(ref.field())) {
            Rendered r;
            try {
                r = property(target, ref.field());
            } catch (Invalid e) {
                throw new TemplateException("lookup('" + reference + "'): that property has errors");
            }
            if (sensitive(target)) {
                readsSensitive.add(consumer.id());
                secrets.add(r.value());
                secrets.addAll(received(target)); // what it rendered from a secret
            }
            if (!r.late()) return r.value();
            waitsFor.add(ref.id());
            return PENDING;
        }
        if (ref.field().equals(schema.nameProperty())) return target.name();
        if (schema.outputs().contains(ref.field())) {
            waitsFor.add(ref.id());
            return PENDING;
        }
        Set<String> fields = new TreeSet<>(schema.outputs());
        target.properties().keySet().stream().filter(k -> schema.property(k) != null).forEach(fields::add);
        if (schema.property(ref.field()) != null) {
            throw new UnknownNameException("lookup('" + reference + "'): " + ref.id() + " does not set '" + ref.field() + "'");
        }
        throw new UnknownNameException("lookup('" + reference + "'): " + ref.id() + " has no field '" + ref.field() + "'"
                + Suggest.hint(ref.field(), fields) + (fields.isEmpty() ? "" : "; it has " + String.join(", ", fields)));
    }

    private Redaction received(Declaration d) {
        return received.computeIfAbsent(d.id(), id -> new Redaction());
    }

    /** Marked {@code sensitive} (or possibly, when that is rendered at run time), or reads a sensitive declared value. */
    private boolean sensitive(Declaration d) {
        if (readsSensitive.contains(d.id())) return true;
        if (!d.properties().containsKey("sensitive") || d.kind().schema().property("sensitive") == null) return false;
        try {
            Rendered r = property(d, "sensitive");
            return r.late() || Boolean.TRUE.equals(r.value());
        } catch (Invalid e) {
            return true;
        }
    }

    private void addLookupEdge(String producer, Declaration consumer) {
        edges.add(new Edge(producer, consumer.id(), EdgeReason.LOOKUP));
    }

    private void readAlias(Declaration d) {
        YNode.Entry e = d.properties().get("alias");
        if (e == null) return;
        Object value = e.value().plain();
        if (!(value instanceof String alias) || alias.isBlank()) {
            problems.add(e.value().mark(), d.id() + ": alias: expected a name, got " + e.value().describe());
            return;
        }
        String previous = aliases.putIfAbsent(alias, d.id());
        if (previous != null) {
            problems.add(e.value().mark(), d.id() + ": alias '" + alias + "' is already used by " + previous);
        } else if (byId.containsKey(alias)) {
            problems.add(e.value().mark(), d.id() + ": alias '" + alias + "' is the id of another resource");
        }
    }

    private void relations(Declaration d) {
        for (String relation : List.of("require", "before", "notify", "subscribe")) {
            YNode.Entry e = d.properties().get(relation);
            if (e == null) continue;
            List<YNode> items = e.value() instanceof YNode.Seq seq ? seq.items() : List.of(e.value());
            for (YNode item : items) {
                Object raw = item.plain();
                if (!(raw instanceof String text)) {
                    problems.add(item.mark(), d.id() + ": " + relation + ": expected resource ids like 'file#/etc/motd', got " + item.describe());
                    continue;
                }
                List<String> targets;
                try {
                    targets = strings(Rendering.render(text, d.scope()));
                } catch (TemplateException | IllegalArgumentException ex) {
                    problems.add(item.mark(), d.id() + ": " + relation + ": " + ex.getMessage());
                    continue;
                }
                for (String target : targets) relation(d, relation, target, item.mark());
            }
        }
    }

    private void relation(Declaration d, String relation, String target, Mark mark) {
        String canonical = CanonicalIds.id(target, kinds);
        String id = byId.containsKey(canonical) ? canonical : aliases.get(target);
        if (id == null) {
            Set<String> known = new TreeSet<>(byId.keySet());
            known.addAll(aliases.keySet());
            List<String> sameName = byId.keySet().stream().filter(k -> k.endsWith("#" + target)).toList();
            String hint = sameName.size() == 1 ? " (did you mean '" + sameName.get(0) + "'?)" : Suggest.hint(target, known);
            problems.add(mark, d.id() + ": " + relation + ": no resource '" + target + "'" + hint + "; write kind#name");
            return;
        }
        if (id.equals(d.id())) {
            problems.add(mark, d.id() + ": " + relation + ": a resource cannot refer to itself");
            return;
        }
        switch (relation) {
            case "require" -> edges.add(new Edge(id, d.id(), EdgeReason.REQUIRE));
            case "before" -> edges.add(new Edge(d.id(), id, EdgeReason.BEFORE));
            case "notify" -> edges.add(new Edge(d.id(), id, EdgeReason.NOTIFY));
            default -> edges.add(new Edge(id, d.id(), EdgeReason.SUBSCRIBE));
        }
    }

    private Vertex.Control control(Declaration d) throws Invalid {
        YNode.Entry e = d.properties().get("control");
        if (e == null) return Vertex.Control.NONE;
        if (!(e.value() instanceof YNode.Dict dict)) {
            problems.add(e.value().mark(), d.id() + ": control: expected a map with if and/or unless, got " + e.value().describe());
            throw new Invalid();
        }
        Map<String, Vertex.Condition> conditions = new HashMap<>();
        Invalid.Parts parts = new Invalid.Parts();
        for (YNode.Entry c : dict.entries().values()) {
            if (!CONTROL.contains(c.key())) {
                problems.add(c.keyMark(), d.id() + ": control: unknown key '" + c.key() + "'" + Suggest.hint(c.key(), CONTROL) + "; expected if, unless");
                parts.invalid();
                continue;
            }
            conditions.put(c.key(), parts.read(() -> condition(d, c)));
        }
        parts.throwIfAny();
        return new Vertex.Control(conditions.get("if"), conditions.get("unless"));
    }

    /**
     * Parses a condition and, when it needs no run-time value, evaluates it now so mistakes surface early (a
     * syntax error is found before any lookup, so it is never put off to run time).
     */
    private Vertex.Condition condition(Declaration d, YNode.Entry c) throws Invalid {
        Object raw = c.value().plain();
        Mark mark = c.value().mark();
        String where = d.id() + ": control." + c.key() + ": ";
        if (raw instanceof Boolean b) return new Vertex.Condition(b.toString(), mark);
        if (!(raw instanceof String source)) {
            problems.add(mark, where + "expected an expression (a string) or true/false, got " + c.value().describe());
            throw new Invalid();
        }
        try {
            Set<String> waitsFor = new LinkedHashSet<>();
            Scope scope = d.scope().withLookup(reference -> resourceValue(d, reference, waitsFor, received(d)));
            Vertex.Condition condition = new Vertex.Condition(source, mark);
            try {
                Conditions.test(condition, scope);
            } catch (TemplateException ex) {
                if (waitsFor.isEmpty()) throw ex;
            }
            for (String producer : waitsFor) addLookupEdge(producer, d);
            return condition;
        } catch (TemplateException ex) {
            problems.add(mark, where + received(d).redact(ex.getMessage()));
            throw new Invalid();
        }
    }

    private List<String> tags(Declaration d) throws Invalid {
        YNode.Entry e = d.properties().get("tags");
        if (e == null) return List.of();
        try {
            return strings(Property.optional("tags", Type.STRING_LIST).coerce(Rendering.render(e.value().plain(), d.scope())));
        } catch (TemplateException | IllegalArgumentException ex) {
            problems.add(e.value().mark(), d.id() + ": " + ex.getMessage());
            throw new Invalid();
        }
    }

    /** A rendered relation or tag list: a string, or a list of them. */
    @SuppressWarnings("unchecked")
    private static List<String> strings(Object value) {
        Object list = Type.STRING_LIST.tryConvert(value);
        if (list == null) throw new IllegalArgumentException("expected a name or a list of names, got " + YNode.describeValue(value));
        return (List<String>) list;
    }
}
