package io.muster.engine.codec;

import io.muster.engine.graph.Collect;
import io.muster.engine.graph.Edge;
import io.muster.engine.graph.Graph;
import io.muster.engine.graph.Vertex;
import io.muster.engine.health.HealthCheck;
import io.muster.engine.manifest.Mark;
import io.muster.engine.template.ScopeTable;
import io.muster.proto.graph.BundleFile;
import io.muster.proto.graph.Condition;
import io.muster.proto.graph.EdgeReason;
import io.muster.proto.graph.Export;
import io.muster.proto.graph.Meta;
import io.muster.proto.graph.Origin;
import io.muster.proto.graph.PropertyMark;
import io.muster.proto.graph.Variable;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A graph as a message, in one fixed order: vertices as declared, each with its members; scope tables and
 * manifests numbered as first met on that walk; edges sorted; marks relative to the bundle.
 */
final class GraphEncoder {
    private final Path root;
    private final Map<ScopeTable, Integer> tables = new LinkedHashMap<>();
    private final Map<String, Integer> manifests = new LinkedHashMap<>();

    private GraphEncoder(Path root) {
        this.root = root;
    }

    static io.muster.proto.graph.Graph encode(Graph graph) {
        return new GraphEncoder(graph.bundle().root()).graph(graph);
    }

    private io.muster.proto.graph.Graph graph(Graph graph) {
        io.muster.proto.graph.Graph.Builder out = io.muster.proto.graph.Graph.newBuilder();
        Map<String, Integer> order = new HashMap<>();
        for (Vertex v : graph.vertices()) {
            order.put(v.id(), order.size());
            out.addVertices(vertex(v));
        }
        List<Edge> edges = new ArrayList<>(graph.edges());
        edges.sort(Comparator.comparing((Edge e) -> order.get(e.from())).thenComparing(e -> order.get(e.to()))
                .thenComparing(Edge::reason));
        for (Edge e : edges) {
            out.addEdges(io.muster.proto.graph.Edge.newBuilder().setFrom(e.from()).setTo(e.to())
                    .setReason(EdgeReason.valueOf(e.reason().name())));
        }
        tables.keySet().forEach(table -> out.addScopes(table(table)));
        for (Collect c : graph.collects()) {
            out.addCollects(io.muster.proto.graph.Collect.newBuilder().setKind(c.kind()).addAllTags(c.tags()).addAllFrom(c.from())
                    .setWhere(PlainCodec.encodeMap(c.where())).addAllAllowPaths(c.allowPaths()).addAllAllowKinds(c.allowKinds())
                    .setMeta(meta(c.meta())).setMark(mark(c.mark())));
        }
        out.addAllManifests(manifests.keySet());
        graph.bundle().files().forEach((path, sha256) -> out.addBundleFiles(BundleFile.newBuilder().setPath(path).setSha256(sha256)));
        out.addAllDirectories(graph.bundle().directories());
        return out.build();
    }

    private io.muster.proto.graph.Vertex vertex(Vertex v) {
        io.muster.proto.graph.Vertex.Builder out = io.muster.proto.graph.Vertex.newBuilder()
                .setKind(v.kind().name())
                .setName(v.name())
                .setParams(PlainCodec.encodeMap(v.params().values()))
                .setLate(PlainCodec.encodeMap(v.late()))
                .setMark(mark(v.mark()));
        v.propertyMarks().forEach((property, mark) -> out.addPropertyMarks(PropertyMark.newBuilder().setProperty(property).setMark(mark(mark))));
        if (v.control().onlyIf() != null) out.setOnlyIf(condition(v.control().onlyIf()));
        if (v.control().unless() != null) out.setUnless(condition(v.control().unless()));
        out.setMeta(meta(v.meta()))
                .addAllTags(v.tags())
                .setScope(tables.computeIfAbsent(v.scope(), table -> tables.size()))
                .setOrigin(Origin.newBuilder().addAllChain(v.origin().chain()).setNoop(v.origin().noop())
                        .setHealthCheckOnly(v.origin().healthCheckOnly()));
        for (HealthCheck check : v.healthChecks()) out.addHealthChecks(healthCheck(check));
        out.addAllReceived(v.received().values());
        for (Vertex member : v.grouped()) out.addGrouped(vertex(member));
        return out.build();
    }

    private Condition condition(Vertex.Condition condition) {
        return Condition.newBuilder().setSource(condition.source()).setMark(mark(condition.mark())).build();
    }

    private io.muster.proto.graph.Mark mark(Mark mark) {
        Path relative = root.relativize(mark.file().toAbsolutePath().normalize());
        String file = relative.toString().replace(relative.getFileSystem().getSeparator(), "/");
        return io.muster.proto.graph.Mark.newBuilder().setManifest(manifests.computeIfAbsent(file, f -> manifests.size()))
                .setLine(mark.line()).setColumn(mark.column()).build();
    }

    private static Meta meta(Vertex.Meta meta) {
        Meta.Builder out = Meta.newBuilder();
        if (meta.exported()) out.setExport(Export.newBuilder().addAllTo(meta.export().to()).addAllTags(meta.export().tags()));
        return out.setNoop(meta.noop()).setRetry(meta.retry()).setDelayMs(meta.delayMs())
                .setPollSeconds(meta.pollSeconds()).setLimit(meta.limit()).setBurst(meta.burst()).addAllSema(meta.sema())
                .setRewatch(meta.rewatch()).setRealize(meta.realize()).setReverse(meta.reverse())
                .setAutoedge(meta.autoedge()).setAutogroup(meta.autogroup()).build();
    }

    private static io.muster.proto.graph.HealthCheck healthCheck(HealthCheck check) {
        return io.muster.proto.graph.HealthCheck.newBuilder().setName(check.name()).setCommand(check.command()).setGoss(check.goss())
                .setTries(check.tries()).setTrySleepNanos(check.trySleep().toNanos()).setTimeoutNanos(check.timeout().toNanos()).build();
    }

    private static io.muster.proto.graph.ScopeTable table(ScopeTable table) {
        io.muster.proto.graph.ScopeTable.Builder out = io.muster.proto.graph.ScopeTable.newBuilder()
                .setDirectory(table.directory())
                .setData(PlainCodec.encodeMap(table.data()))
                .setFacts(PlainCodec.encodeMap(table.facts()))
                .setDialect(table.dialect().wireName()); // empty for muster's own: not written
        table.env().forEach((name, value) -> out.addEnv(Variable.newBuilder().setName(name).setValue(value)));
        return out.build();
    }
}
