package io.muster.engine.resource.service;

import static io.muster.engine.testing.Manifests.resource;
import static org.assertj.core.api.Assertions.assertThat;

import io.muster.engine.report.Report;
import io.muster.engine.report.Status;
import io.muster.engine.resource.Change;
import io.muster.engine.testing.InitScriptService;
import io.muster.engine.testing.Manifests;
import java.nio.file.Path;
import java.time.Duration;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The service kind through a real init script and daemon (this machine does not boot with systemd). */
class ServiceResourceTest {
    @TempDir
    Path dir;

    private InitScriptService service;

    @BeforeEach
    void install() throws Exception {
        service = InitScriptService.install(dir);
    }

    @AfterEach
    void remove() throws Exception {
        service.close();
    }

    private Report apply(String yaml) throws Exception {
        return new Manifests(dir).apply(yaml.replace("NAME", service.name()));
    }

    private Report plan(String yaml) throws Exception {
        return new Manifests(dir).plan(yaml.replace("NAME", service.name()));
    }

    private String id() {
        return "service#" + service.name();
    }

    @Test
    void startsAStoppedServiceOnceAndStopsIt() throws Exception {
        String running = "resources: [{service: {name: NAME, ensure: running, provider: init}}]";

        Report planned = plan(running);
        assertThat(resource(planned, id()).changes()).extracting(Change::describe).containsExactly("ensure stopped -> running");
        assertThat(service.pid()).as("plan starts nothing").isEqualTo(-1);

        assertThat(resource(apply(running), id()).status()).isEqualTo(Status.CHANGED);
        long pid = service.pid();
        assertThat(pid).isPositive();
        assertThat(resource(apply(running), id()).status()).isEqualTo(Status.STABLE);
        assertThat(service.pid()).isEqualTo(pid);

        Report stopped = apply("resources: [{service: {name: NAME, ensure: stopped}}]");
        assertThat(resource(stopped, id()).changes()).extracting(Change::describe).containsExactly("ensure running -> stopped");
        assertThat(service.pid()).isEqualTo(-1);
    }

    @Test
    void aRefreshRestartsItOrReloadsIt() throws Exception {
        apply("resources: [{service: {name: NAME, ensure: running}}]");
        long first = service.pid();

        Report restarted = apply("""
                resources:
                  - file: [{ROOT/conf: {content: "a\\n", notify: service#NAME}}]
                  - service: {name: NAME, ensure: running}
                """);
        assertThat(resource(restarted, id()).refreshed()).isTrue();
        assertThat(resource(restarted, id()).changedAttributes()).containsExactly("restarted");
        assertThat(service.pid()).isPositive().isNotEqualTo(first);

        long second = service.pid();
        Report reloaded = apply("""
                resources:
                  - file: [{ROOT/conf: {content: "b\\n", notify: service#NAME}}]
                  - service: {name: NAME, ensure: running, restart: reload}
                """);
        assertThat(resource(reloaded, id()).changedAttributes()).containsExactly("reloaded");
        assertThat(service.pid()).isEqualTo(second);
        Awaitility.await().atMost(Duration.ofSeconds(10)).untilAsserted( // the daemon handles SIGHUP after the script returned
                () -> assertThat(service.log()).containsExactly("start", "start", "reload"));
    }

    @Test
    void aRefreshOfAStoppedServiceLeavesItStopped() throws Exception {
        Report report = apply("""
                resources:
                  - file: [{ROOT/conf: {content: "a\\n", notify: service#NAME}}]
                  - service: {name: NAME, ensure: stopped}
                """);

        assertThat(resource(report, id()).status()).isEqualTo(Status.STABLE);
        assertThat(service.pid()).isEqualTo(-1);
    }

    @Test
    void enablesAndDisablesItThroughUpdateRcD() throws Exception {
        assertThat(resource(plan("resources: [{service: {name: NAME, enable: true}}]"), id()).changes())
                .extracting(Change::describe).containsExactly("enable false -> true");
        assertThat(service.startsAtBoot()).isFalse();

        assertThat(resource(apply("resources: [{service: {name: NAME, enable: true}}]"), id()).status()).isEqualTo(Status.CHANGED);
        assertThat(service.startsAtBoot()).isTrue();
        assertThat(resource(apply("resources: [{service: {name: NAME, enable: true}}]"), id()).status()).isEqualTo(Status.STABLE);

        Report disabled = apply("resources: [{service: {name: NAME, enable: false}}]");
        assertThat(resource(disabled, id()).changes()).extracting(Change::describe).containsExactly("enable true -> false");
        assertThat(service.startsAtBoot()).isFalse();
        assertThat(service.pid()).as("enable alone neither starts nor stops it").isEqualTo(-1);
        assertThat(resource(apply("resources: [{service: {name: NAME, enable: true}}]"), id()).status()).isEqualTo(Status.CHANGED);
        assertThat(service.startsAtBoot()).isTrue();
    }

    @Test
    void aMissingInitScriptIsNamedAndForeseenByPlan() throws Exception {
        String yaml = "resources: [{service: {name: no-such-service-here, ensure: running, provider: init}}]";

        Report planned = plan(yaml);
        assertThat(resource(planned, "service#no-such-service-here").status()).isEqualTo(Status.WOULD_FAIL);
        assertThat(resource(planned, "service#no-such-service-here").message())
                .isEqualTo("its init script /etc/init.d/no-such-service-here does not exist, and nothing before it in the manifest makes it");
        Report report = apply(yaml);

        assertThat(resource(report, "service#no-such-service-here").status()).isEqualTo(Status.FAILED);
        assertThat(resource(report, "service#no-such-service-here").error()).contains("/etc/init.d/no-such-service-here").contains("no such file");
    }
}
