package io.muster.cli;

import io.muster.engine.format.ccm.CcmNames;
import io.muster.engine.graph.Graph;
import io.muster.engine.report.ResourceReport;
import io.muster.engine.report.Status;
import java.io.PrintWriter;
import java.util.function.Consumer;

/**
 * A CCM manifest's messages as {@code ccm apply} prints them on its output: an empty line and the
 * {@code pre_message} before the resources, the {@code post_message} after them when none failed (its resource
 * is skipped then); every other resource's report goes on to {@code report}.
 */
final class CcmConsole implements Consumer<ResourceReport> {
    private final Graph graph;
    private final PrintWriter out;
    private final Consumer<ResourceReport> report;

    CcmConsole(Graph graph, PrintWriter out, Consumer<ResourceReport> report) {
        this.graph = graph;
        this.out = out;
        this.report = report;
    }

    @Override
    public void accept(ResourceReport r) {
        boolean pre = CcmNames.isPreMessage(r.id());
        if (!pre && !CcmNames.isPostMessage(r.id())) {
            report.accept(r);
            return;
        }
        if (r.status() != Status.STABLE) return;
        if (pre) out.println();
        out.println(graph.vertex(r.id()).params().raw("comment"));
        out.flush();
    }
}
