package io.muster.engine.run;

import static io.muster.engine.testing.Manifests.resource;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.muster.engine.graph.Graph;
import io.muster.engine.metrics.Metrics;
import io.muster.engine.report.Report;
import io.muster.engine.report.ResourceReport;
import io.muster.engine.report.Status;
import io.muster.engine.resource.Kinds;
import io.muster.engine.testing.Manifests;
import io.muster.engine.testing.ThrowingKind;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Whatever a resource throws (a stack overflow, an out-of-memory error, a runtime exception), in its check,
 * apply, watch or reverse, fails that resource with a message saying what and where; its dependents are
 * skipped, every other resource's work is kept, and the run ends with its report.
 */
class ThrowingResourceTest {
    private static final Duration PATIENCE = Duration.ofSeconds(20);

    @TempDir
    Path dir;

    private Manifests manifests() {
        return new Manifests(dir, Kinds.installed().with(new ThrowingKind()));
    }

    private static String site(String error, String in) {
        return """
                resources:
                  - boom: [{bad: {error: %s, in: %s}}]
                  - file:
                      - ROOT/after: {content: x, require: boom#bad}
                      - ROOT/independent: {content: x}
                """.formatted(error, in);
    }

    @ParameterizedTest
    @CsvSource({
            "stackoverflow, check, internal error: StackOverflowError in check or apply",
            "stackoverflow, apply, internal error: StackOverflowError in check or apply",
            "oom,           apply, internal error: OutOfMemoryError (Requested array size exceeds VM limit) in check or apply",
            "runtime,       check, boom in check"})
    void applyFailsTheResourceThatThrewSkipsItsDependentsAndRunsTheRest(String error, String in, String message) {
        Report report = assertTimeoutPreemptively(PATIENCE, () -> manifests().apply(site(error, in)));

        ResourceReport bad = resource(report, "boom#bad");
        assertThat(bad.status()).isEqualTo(Status.FAILED);
        assertThat(bad.error()).isEqualTo(message);
        assertThat(resource(report, "file#" + dir + "/after").message()).isEqualTo("dependency boom#bad failed");
        assertThat(dir.resolve("after")).doesNotExist();
        assertThat(resource(report, "file#" + dir + "/independent").status()).isEqualTo(Status.CHANGED);
        assertThat(dir.resolve("independent")).hasContent("x");
        assertThat(report.exitCode()).isEqualTo(1);
    }

    @Test
    void planSaysTheErrorCameFromTheCheck() {
        Report report = assertTimeoutPreemptively(PATIENCE, () -> manifests().plan(site("stackoverflow", "check")));

        assertThat(resource(report, "boom#bad").error()).isEqualTo("internal error: StackOverflowError in check");
        assertThat(resource(report, "file#" + dir + "/independent").status()).isEqualTo(Status.CHANGED);
        assertThat(report.detailedExitCode()).isEqualTo(6);
    }

    @ParameterizedTest
    @CsvSource({
            "stackoverflow, check, internal error: StackOverflowError in check or apply",
            "oom,           watch, watch failed: internal error: OutOfMemoryError (Requested array size exceeds VM limit) in watch",
            "runtime,       watch, watch failed: boom in watch"})
    void aLiveRunReportsTheFailureAndConvergesWithoutIt(String error, String in, String message) throws Exception {
        List<ResourceReport> reports = new CopyOnWriteArrayList<>();
        try (LiveRun live = new LiveRun(options(), 0.2, new Metrics(), reports::add, converged -> {})) {
            live.swap(manifests().compile(site(error, in)));

            assertThat(live.awaitConverged(PATIENCE.toNanos())).as("converged; reports: %s", reports).isTrue();
            ResourceStats bad = stats(live, "boom#bad");
            assertThat(bad.last().status()).isEqualTo(Status.FAILED);
            assertThat(bad.last().error()).isEqualTo(message);
            assertThat(stats(live, "file#" + dir + "/after").last().message()).isEqualTo("dependency boom#bad failed");
            assertThat(dir.resolve("after")).doesNotExist();
            assertThat(dir.resolve("independent")).hasContent("x");
        }
    }

    @Test
    void aReverseThatThrowsIsReportedAndTheSwapGoesOn() throws Exception {
        try (LiveRun live = new LiveRun(options(), 0.2, new Metrics(), r -> {}, converged -> {})) {
            live.swap(manifests().compile("resources: [{boom: [{bad: {error: stackoverflow, in: reverse, meta: {reverse: true}}}]}]\n"));
            assertThat(live.awaitConverged(PATIENCE.toNanos())).isTrue();

            Graph next = manifests().compile("resources: [{file: [{ROOT/next: {content: x}}]}]\n");
            assertTimeoutPreemptively(PATIENCE, () -> live.swap(next));

            assertThat(live.awaitConverged(PATIENCE.toNanos())).isTrue();
            assertThat(live.reversals()).singleElement().satisfies(r -> {
                assertThat(r.status()).isEqualTo(Status.FAILED);
                assertThat(r.error()).isEqualTo("reverse failed: internal error: StackOverflowError in reverse");
            });
            assertThat(dir.resolve("next")).hasContent("x");
        }
    }

    @Test
    void aDocumentTargetNestedTooDeepFailsThatDocumentOnlyInApplyAndInRun() throws Exception {
        int depth = 5000; // as the review found it: a stack overflow that hung apply and left run pending
        Files.writeString(dir.resolve("deep.json"), "{\"a\": ".repeat(depth) + "1" + "}".repeat(depth));
        String yaml = """
                resources:
                  - document: [{ROOT/deep.json: {content: {a: {b: 1}}}}]
                  - file: [{ROOT/independent: {content: x}}]
                """;
        String deep = "document#" + dir + "/deep.json";

        Report report = assertTimeoutPreemptively(PATIENCE, () -> manifests().apply(yaml));
        assertThat(resource(report, deep).status()).isEqualTo(Status.FAILED);
        assertThat(resource(report, deep).error()).isNotBlank();
        assertThat(dir.resolve("independent")).hasContent("x");

        try (LiveRun live = new LiveRun(options(), 0.2, new Metrics(), r -> {}, converged -> {})) {
            live.swap(manifests().compile(yaml));
            assertThat(live.awaitConverged(PATIENCE.toNanos())).isTrue();
            assertThat(stats(live, deep).last().status()).isEqualTo(Status.FAILED);
        }
    }

    private RunOptions options() {
        return new RunOptions("testhost", false, 4, dir.resolve(".prefix"), false, false);
    }

    private static ResourceStats stats(LiveRun live, String id) {
        return live.stats().stream().filter(s -> s.id().equals(id)).findFirst().orElseThrow();
    }
}
