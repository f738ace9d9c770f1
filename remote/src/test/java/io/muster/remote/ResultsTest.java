package io.muster.remote;

import static org.assertj.core.api.Assertions.assertThat;

import io.muster.coordinator.status.HostView;
import io.muster.engine.util.Json;
import io.muster.proto.fleet.Failure;
import io.muster.proto.fleet.GraphPointer;
import io.muster.proto.fleet.HostStatus;
import io.muster.proto.fleet.Summary;
import io.muster.remote.RemoteResult.Result;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** How a host's job and its agent's report make its result, and how results are shown. */
class ResultsTest {
    private static final List<RemoteResult> RESULTS = List.of(
            new RemoteResult("web1", Result.CONVERGED, 3, 0, 4.26, "uploaded", null),
            new RemoteResult("db-1.example.com", Result.FAILED, 1, 1, 12.0, "reused", "exec#migrate: exit status 2"),
            new RemoteResult("10.0.0.9:2222", Result.UNREACHABLE, 0, 0, 0.5, null, "10.0.0.9:2222: connection refused"));

    @Test
    void theTableHasALinePerHostInTheOrderGivenWithTheErrorBelow() {
        assertThat(ResultTable.render(RESULTS)).isEqualTo("""
                HOST              RESULT       CHANGED  FAILED  TIME   CACHE
                web1              converged    3        0       4.3s   uploaded
                db-1.example.com  failed       1        1       12.0s  reused
                  exec#migrate: exit status 2
                10.0.0.9:2222     unreachable  -        -       0.5s   -
                  10.0.0.9:2222: connection refused
                """);
    }

    @Test
    void theJsonHasTheSameFieldsUnderSchemaOne() {
        Object doc = Json.parse(ResultJson.render(RESULTS));

        assertThat(doc).isEqualTo(Json.parse("""
                {"schema": 1, "hosts": [
                  {"name": "web1", "result": "converged", "changed": 3, "failed": 0, "seconds": 4.26, "cache": "uploaded", "error": null},
                  {"name": "db-1.example.com", "result": "failed", "changed": 1, "failed": 1, "seconds": 12.0, "cache": "reused",
                   "error": "exec#migrate: exit status 2"},
                  {"name": "10.0.0.9:2222", "result": "unreachable", "changed": 0, "failed": 0, "seconds": 0.5, "cache": null,
                   "error": "10.0.0.9:2222: connection refused"}]}
                """));
        assertThat(RemoteResult.allConverged(RESULTS)).isFalse();
        assertThat(RemoteResult.allConverged(RESULTS.subList(0, 1))).isTrue();
    }

    private static HostView reported(HostStatus status, GraphPointer pointer) {
        return new HostView("web1", false, Optional.ofNullable(status), Optional.ofNullable(pointer));
    }

    private static HostStatus status(boolean converged, long changed, Failure... failed) {
        return HostStatus.newBuilder().setDeploy(1).setConverged(converged).addAllFailed(List.of(failed))
                .setSummary(Summary.newBuilder().setApplies(changed).setFailed(failed.length)).build();
    }

    @Test
    void convergedWhenTheAgentExitedZeroAndReportedTheDeployConvergedWithoutFailures() {
        RemoteResult r = RemoteRun.result("web1", new HostJob.Outcome("reused", 0, "web1: converged (deploy 1)", null, 2), reported(status(true, 2), null), 1);

        assertThat(r).isEqualTo(new RemoteResult("web1", Result.CONVERGED, 2, 0, 2, "reused", null));
    }

    @Test
    void failedNamesTheFirstFailedResourceOrTheCompileErrorOrTheAgentsLastLine() {
        HostJob.Outcome exit1 = new HostJob.Outcome("uploaded", 1, "web1: not converged within 5 s (deploy 1)", null, 6);
        Failure one = Failure.newBuilder().setId("exec#a").setError("exit status 1\nmore").build();
        Failure two = Failure.newBuilder().setId("exec#b").setError("exit status 2").build();

        assertThat(RemoteRun.result("web1", exit1, reported(status(true, 1, one, two), null), 1).error()).isEqualTo("exec#a: exit status 1 (…) (and 1 more)");
        assertThat(RemoteRun.result("web1", exit1, reported(null, GraphPointer.newBuilder().setDeploy(1).setError("site.yaml:3:5: no such fact").build()), 1))
                .extracting(RemoteResult::result, RemoteResult::error).containsExactly(Result.FAILED, "site.yaml:3:5: no such fact");
        assertThat(RemoteRun.result("web1", exit1, reported(status(false, 0), null), 1))
                .extracting(RemoteResult::result, RemoteResult::error).containsExactly(Result.FAILED, "web1: not converged within 5 s (deploy 1)");
    }

    @Test
    void unreachableWhenSshFailedOrTheAgentNeverReported() {
        assertThat(RemoteRun.result("web1", new HostJob.Outcome(null, -1, null, "web1: connection refused", 0.1), null, 1))
                .extracting(RemoteResult::result, RemoteResult::error).containsExactly(Result.UNREACHABLE, "web1: connection refused");
        assertThat(RemoteRun.result("web1", new HostJob.Outcome("uploaded", 127, "sh: 1: java: not found", null, 0.1), null, 1))
                .extracting(RemoteResult::result, RemoteResult::error)
                .containsExactly(Result.UNREACHABLE, "its agent never reported to the fleet: sh: 1: java: not found");
    }
}
