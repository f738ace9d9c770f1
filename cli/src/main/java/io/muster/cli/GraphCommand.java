package io.muster.cli;

import io.muster.engine.graph.Graph;
import io.muster.engine.graph.GraphFormat;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

@Command(name = "graph", mixinStandardHelpOptions = true,
        description = "Print the compiled graph: resources and edges, each edge with its reason.",
        footerHeading = "%nExamples:%n",
        footer = {
                "  muster graph site.yaml | dot -Tsvg > site.svg   draw it with Graphviz",
                "  muster graph site.yaml --format json%n"})
final class GraphCommand implements Callable<Integer> {
    enum Format { dot, json }

    @Mixin
    ManifestOptions manifest;

    @Option(names = "--format", paramLabel = "FORMAT", defaultValue = "dot", description = "dot or json (default: ${DEFAULT-VALUE}).")
    Format format;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        Optional<Graph> compiled = manifest.compile(spec.commandLine().getErr());
        if (compiled.isEmpty()) return 1;
        Graph graph = compiled.get();
        spec.commandLine().getOut().print(format == Format.dot ? GraphFormat.dot(graph) : GraphFormat.json(graph));
        spec.commandLine().getOut().flush();
        return 0;
    }
}
