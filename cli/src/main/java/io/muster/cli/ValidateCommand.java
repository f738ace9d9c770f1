package io.muster.cli;

import io.muster.engine.graph.Graph;
import io.muster.engine.manifest.ManifestException;
import io.muster.engine.manifest.Problem;
import io.muster.engine.report.JsonDocument;
import io.muster.engine.util.Json;
import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

@Command(name = "validate", mixinStandardHelpOptions = true,
        description = "Check a manifest without running it: every error as FILE:LINE:COL: message.",
        exitCodeListHeading = "%nExit codes:%n", exitCodeList = {"0:valid", "1:invalid", "64:usage error"},
        footerHeading = "%nExamples:%n",
        footer = {
                "  muster validate site.yaml                     each problem as FILE:LINE:COL",
                "  muster validate site.yaml --data env=prod     with the data apply gets",
                "  muster validate site.yaml --output json       the problems as JSON, with file, line, column%n"})
final class ValidateCommand implements Callable<Integer> {
    @Mixin
    ManifestOptions manifest;

    @Mixin
    OutputFlag output;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        if (!output.json()) {
            Optional<Graph> compiled = manifest.compile(spec.commandLine().getErr());
            if (compiled.isEmpty()) return 1;
            Graph graph = compiled.get();
            out.printf(Locale.ROOT, "%s: ok, %d resources, %d edges%n", manifest.manifest, graph.size(), graph.edges().size());
            return 0;
        }
        Map<String, Object> doc = JsonDocument.create();
        List<Problem> problems = List.of();
        try {
            Graph graph = manifest.compileOrThrow();
            doc.put("resources", graph.size());
            doc.put("edges", graph.edges().size());
        } catch (ManifestException e) {
            problems = e.problems();
        }
        doc.put("ok", problems.isEmpty());
        doc.put("problems", problems.stream().map(ValidateCommand::problem).toList());
        out.print(Json.pretty(doc) + "\n");
        out.flush();
        return problems.isEmpty() ? 0 : 1;
    }

    private static Map<String, Object> problem(Problem p) {
        Map<String, Object> entry = new LinkedHashMap<>();
        entry.put("file", p.mark().file().toString());
        entry.put("line", p.mark().line());
        entry.put("column", p.mark().column());
        entry.put("message", p.message());
        return entry;
    }
}
