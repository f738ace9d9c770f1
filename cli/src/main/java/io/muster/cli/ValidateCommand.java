package io.muster.cli;

import io.muster.engine.graph.Graph;
import java.util.Locale;
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
                "  muster validate site.yaml --data env=prod     with the data apply gets%n"})
final class ValidateCommand implements Callable<Integer> {
    @Mixin
    ManifestOptions manifest;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        Optional<Graph> compiled = manifest.compile(spec.commandLine().getErr());
        if (compiled.isEmpty()) return 1;
        Graph graph = compiled.get();
        spec.commandLine().getOut().printf(Locale.ROOT, "%s: ok, %d resources, %d edges%n", manifest.manifest, graph.size(), graph.edges().size());
        return 0;
    }
}
