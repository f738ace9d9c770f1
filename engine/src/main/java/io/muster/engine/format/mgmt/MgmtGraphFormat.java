package io.muster.engine.format.mgmt;

import io.muster.engine.format.ForeignManifest;
import io.muster.engine.format.ManifestFormat;
import io.muster.engine.format.NativeManifest;
import io.muster.engine.manifest.ManifestException;
import io.muster.engine.manifest.Problems;
import io.muster.engine.manifest.YNode;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * An mgmt YAML graph ({@code graph: NAME}, {@code resources:} keyed by kind, {@code edges:}, {@code collect:}),
 * as mgmt's {@code yamlgraph} reads it, in muster's native shape: one resource per entry, each edge a
 * {@code before} (or with {@code notify: true} a {@code notify}) of its {@code from} resource. Keys mgmt does
 * not know ({@code comment}, {@code remote}, a resource's {@code pollint}) are ignored, as mgmt ignores them.
 */
public final class MgmtGraphFormat implements ManifestFormat {

    @Override
    public String key() {
        return "graph";
    }

    @Override
    public NativeManifest translate(YNode.Dict top, ForeignManifest source) throws ManifestException {
        Problems problems = source.problems();
        YNode graph = top.get("graph");
        if (!(graph instanceof YNode.Scalar s) || s.value() == null || s.value().toString().isEmpty()) {
            problems.add(graph.mark(), "graph: expected the graph's name, got " + graph.describe());
        }
        GraphResources resources = GraphResources.read(top.get("resources"), problems);
        new GraphEdges(resources, problems).read(top.get("edges"));
        Map<String, YNode> manifest = new LinkedHashMap<>();
        manifest.put("resources", resources.toNative(top.mark()));
        Optional<YNode> collect = GraphCollect.read(top.get("collect"), problems);
        collect.ifPresent(c -> manifest.put("collect", c));
        return NativeManifest.of(Node.dict(manifest, top.mark()));
    }
}
