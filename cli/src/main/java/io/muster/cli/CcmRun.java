package io.muster.cli;

import io.muster.engine.format.ccm.CcmNames;
import io.muster.engine.graph.Graph;
import io.muster.engine.graph.Vertex;
import io.muster.engine.report.Report;
import io.muster.engine.report.ResourceReport;
import io.muster.engine.template.TemplateDialect;
import java.io.PrintWriter;
import java.util.Optional;

/**
 * A run of a Choria CCM manifest as {@code ccm apply} runs it: its log lines on stdout ({@link LogSetup#onStdout}),
 * its messages printed ({@link CcmConsole}), and its exit code: a resource that failed is told in the report, not by
 * the exit code (CCM's apply returns no error for it), so the run exits 0; it exits 1 when the run stopped, as
 * CCM's stops at a {@code require} of a resource not run yet ({@link CcmNames}).
 */
final class CcmRun {
    private CcmRun() {}

    /** Whether the manifest given (not one it includes) is a CCM manifest. */
    static boolean isCcm(Graph graph) {
        for (Vertex v : graph.vertices()) {
            if (v.scope() != null && v.scope().directory().isEmpty()) return v.scope().dialect() == TemplateDialect.CCM;
        }
        return false;
    }

    /** 1 when the run stopped, saying why on {@code err} as {@code ccm apply} says its error; else 0. */
    static int exitCode(Report report, PrintWriter err) {
        Optional<ResourceReport> stop = report.resources().stream().filter(CcmRun::stopped).findFirst();
        stop.ifPresent(r -> err.println("muster: error: " + r.error()));
        return stop.isPresent() ? 1 : 0;
    }

    private static boolean stopped(ResourceReport r) {
        return r.status().failure() && CcmNames.isStop(r.id());
    }
}
