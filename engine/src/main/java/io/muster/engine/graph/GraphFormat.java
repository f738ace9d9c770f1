package io.muster.engine.graph;

import io.muster.engine.util.Json;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code muster graph}: the compiled graph as Graphviz dot or JSON, each edge labelled with its reason
 * (value passing dashed, an aggregate's members dotted); a group lists the resources merged into it.
 */
public final class GraphFormat {
    private GraphFormat() {}

    public static String dot(Graph graph) {
        StringBuilder out = new StringBuilder("digraph muster {\n  rankdir=LR;\n  node [shape=box];\n");
        for (Vertex v : graph.vertices()) {
            out.append("  ").append(quote(v.id()));
            if (!v.grouped().isEmpty()) { // a line per member, with dot's own line break
                List<String> ids = v.declared().stream().map(member -> escape(member.id())).toList();
                out.append(" [label=\"").append(String.join("\\n", ids)).append("\"]");
            }
            out.append(";\n");
        }
        for (Edge e : graph.edges()) {
            out.append("  ").append(quote(e.from())).append(" -> ").append(quote(e.to()))
                    .append(" [label=").append(quote(e.reason().label()))
                    .append(e.reason() == EdgeReason.LOOKUP ? ", style=dashed" : e.reason() == EdgeReason.CHILD ? ", style=dotted" : "")
                    .append("];\n");
        }
        return out.append("}\n").toString();
    }

    public static String json(Graph graph) {
        List<Object> vertices = new ArrayList<>();
        for (Vertex v : graph.vertices()) {
            Map<String, Object> vertex = new LinkedHashMap<>();
            vertex.put("id", v.id());
            vertex.put("kind", v.kind().name());
            vertex.put("name", v.name());
            vertex.put("file", v.mark().file().toString());
            vertex.put("line", v.mark().line());
            vertex.put("manifest", v.origin().manifest());
            vertex.put("tags", v.tags());
            vertex.put("grouped", v.groupedIds());
            vertices.add(vertex);
        }
        List<Object> edges = new ArrayList<>();
        for (Edge e : graph.edges()) {
            Map<String, Object> edge = new LinkedHashMap<>();
            edge.put("from", e.from());
            edge.put("to", e.to());
            edge.put("reason", e.reason().label());
            edges.add(edge);
        }
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("vertices", vertices);
        doc.put("edges", edges);
        return Json.pretty(doc) + "\n";
    }

    private static String quote(String s) {
        return '"' + escape(s) + '"';
    }

    private static String escape(String s) {
        return s.replace("\\", "\\\\").replace("\"", "\\\"");
    }
}
