package io.muster.coordinator.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.etcd.jetcd.ByteSequence;
import io.muster.agent.etcd.Keys;
import io.muster.agent.testing.LocalEtcd;
import io.muster.agent.testing.SimulatedAgents;
import io.muster.coordinator.rollout.RolloutSpec;
import io.muster.coordinator.rollout.RolloutStart;
import io.muster.coordinator.rollout.Share;
import io.muster.proto.fleet.Alive;
import io.muster.proto.fleet.HostStatus;
import io.muster.proto.fleet.Summary;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The web page in a real browser (Debian's headless chromium) against a coordinator with a real etcd, three
 * compiled hosts and a thousand more that only report: what a sysadmin keeping the page open sees. Screenshots
 * go to {@code target/screenshots}.
 */
@ExtendWith(LocalEtcd.class)
class WebPageTest {
    private static final Path SHOTS = Path.of("target", "screenshots");
    private static final int BULK = 1000;

    @TempDir
    Path dir;

    @Test
    void aSysadminSeesTheFleetAHostTurnRedWithoutAReloadItsFailureAndTheDeployHistory(LocalEtcd local) throws Exception {
        Path token = Files.writeString(dir.resolve("token"), "page-token\n");
        try (ApiFleet fleet = new ApiFleet(local, "page", dir, token); Chromium browser = Chromium.start(1400, 1000)) {
            for (String host : List.of("web1", "web2", "db1")) fleet.fleet.register(host, Map.of("role", host.substring(0, host.length() - 1)));
            fleet.deploy("first", "web1", "web2", "db1");
            long second = fleet.deploy("second: motd", "web1", "web2", "db1");
            for (String host : List.of("web1", "web2", "db1")) fleet.report(host);
            reportingHosts(fleet, second);

            browser.open(fleet.uri("/").toString());
            await("every host listed").atMost(Duration.ofSeconds(30)).until(() -> browser.eval("document.querySelectorAll('#hosts tbody tr').length"),
                    n -> ((Number) n).intValue() == BULK + 3);
            await("the stream is live").atMost(Duration.ofSeconds(10)).until(() -> browser.eval("document.getElementById('live').textContent"), "live"::equals);
            assertThat(browser.eval(row("web1") + ".dataset.state")).isEqualTo("converged");
            assertThat(browser.eval("document.getElementById('count-converged').textContent")).isEqualTo(String.valueOf(BULK + 3));
            Number drawMillis = (Number) browser.eval("(() => { const t = performance.now(); draw(); return performance.now() - t; })()");
            assertThat(drawMillis.doubleValue()).as("drawing %d hosts takes %s ms", BULK + 3, drawMillis).isLessThan(500);
            browser.screenshot(SHOTS.resolve("fleet.png"));

            browser.eval("window.notReloaded = true");
            fleet.report("web1", "file#/tmp/muster-api-test/web.conf", "cannot write /tmp/muster-api-test/web.conf: No space left on device");
            await("web1 turns red").atMost(Duration.ofSeconds(10)).until(() -> browser.eval(row("web1") + ".dataset.state"), "failed"::equals);
            assertThat(browser.eval("getComputedStyle(" + row("web1") + ").backgroundColor")).isEqualTo("rgb(255, 235, 233)");
            assertThat(browser.eval("window.notReloaded")).as("the page was not reloaded").isEqualTo(true);
            assertThat(browser.eval("document.querySelector('#hosts tbody tr').dataset.host")).as("failed hosts come first").isEqualTo("web1");
            assertThat(browser.eval("document.getElementById('count-failed').textContent")).isEqualTo("1");
            assertThat((String) browser.eval("document.querySelector('#events li').textContent")).contains("web1: converged → failed");
            browser.screenshot(SHOTS.resolve("host-failed.png"));

            browser.eval(row("web1") + ".click()");
            await("web1's failure with its manifest line").atMost(Duration.ofSeconds(10))
                    .until(() -> browser.eval("document.querySelector('#host-body .failure .where')?.textContent"), "site.yaml:3:9"::equals);
            assertThat((String) browser.eval("document.getElementById('host-body').textContent")).contains("No space left on device", "file#/tmp/muster-api-test/web.conf");
            browser.eval("document.querySelector('#counts button[data-state=failed]').click()");
            await().atMost(Duration.ofSeconds(5)).until(() -> browser.eval("document.querySelectorAll('#hosts tbody tr').length"), n -> ((Number) n).intValue() == 1);
            browser.screenshot(SHOTS.resolve("host-details.png"));

            browser.eval("document.querySelector('#counts button[data-state=\"\"]').click()");
            browser.eval("const s = document.getElementById('search'); s.value = 'db'; s.dispatchEvent(new Event('input'))");
            await().atMost(Duration.ofSeconds(5)).until(() -> browser.eval("document.querySelectorAll('#hosts tbody tr').length"), n -> ((Number) n).intValue() == 1);
            assertThat(browser.eval("document.querySelector('#hosts tbody tr').dataset.host")).isEqualTo("db1");

            assertThat(browser.eval("[...document.querySelectorAll('#deploys tbody tr')].map(r => r.dataset.deploy + ' ' + r.className).join(', ')"))
                    .isEqualTo(second + " current, " + (second - 1) + " ");
            browser.eval("sessionStorage.setItem('muster-api-token', 'page-token'); document.querySelector('button[data-rollback]').click()");
            await("the rollback shows in the history").atMost(Duration.ofSeconds(10))
                    .until(() -> browser.eval("[...document.querySelectorAll('#deploys tbody tr')].map(r => r.dataset.deploy + ' ' + r.className).join(', ')"),
                            (second + " rolled-back, " + (second - 1) + " current")::equals);
            await("the page says the rollback was made").atMost(Duration.ofSeconds(10)) // its answer may come after the stream's event
                    .until(() -> browser.eval("document.getElementById('rollback-note').textContent"), ("rolled deploy " + second + " back to " + (second - 1))::equals);
            assertThat(browser.eval("document.getElementById('current-id').textContent")).isEqualTo(String.valueOf(second - 1));
            browser.screenshot(SHOTS.resolve("deploys.png"));
        }
    }

    @Test
    void aWaveThatHaltsTurnsRedWithItsFailedHostsWithoutAReloadAndIsResumedFromThePage(LocalEtcd local) throws Exception {
        Path token = Files.writeString(dir.resolve("token"), "page-token\n");
        try (ApiFleet fleet = new ApiFleet(local, "page-waves", dir, token); SimulatedAgents agents = new SimulatedAgents(fleet.fleet.etcd);
             Chromium browser = Chromium.start(1400, 1000)) {
            for (int i = 1; i <= 5; i++) fleet.fleet.register("h" + i, Map.of("role", "web"));
            fleet.deploy("first", "h1", "h2", "h3", "h4", "h5");
            browser.open(fleet.uri("/").toString());
            await("the stream is live").atMost(Duration.ofSeconds(30)).until(() -> browser.eval("document.getElementById('live').textContent"), "live"::equals);
            assertThat(browser.eval("document.getElementById('rollout').hidden")).as("a deploy that went out at once has no waves").isEqualTo(true);
            browser.eval("window.notReloaded = true");

            agents.failing.add("h2");
            RolloutSpec spec = new RolloutSpec(1, Share.parse("2"), new Share(0, false), Duration.ZERO, null);
            long second = fleet.fleet.deploy(ApiFleet.SITE + "# second\n", RolloutStart.of(fleet.client, spec, Clock.systemUTC()));
            await("wave 2 halts on the page").atMost(Duration.ofSeconds(30)).until(() -> browser.eval(WAVES), "1 done, 2 halted, 3 waiting"::equals);
            assertThat(browser.eval("window.notReloaded")).as("the page was not reloaded").isEqualTo(true);
            // it halts as soon as h2 fails, whether h3 has converged by then or not
            assertThat((String) browser.eval("document.querySelector('#waves li[data-wave=\"2\"]').textContent")).matches("wave 2 halted [01]/2 failed: h2");
            assertThat(browser.eval("getComputedStyle(document.querySelector('#waves li[data-wave=\"2\"]')).backgroundColor")).isEqualTo("rgb(255, 235, 233)");
            assertThat((String) browser.eval("document.getElementById('rollout-reason').textContent")).contains("wave 2 of 3: 1 of 2 hosts failed");
            assertThat(browser.eval("document.getElementById('resume').hidden")).isEqualTo(false);
            browser.screenshot(SHOTS.resolve("wave-halted.png"));

            agents.failing.remove("h2");
            agents.report("h2");
            browser.eval("sessionStorage.setItem('muster-api-token', 'page-token'); document.getElementById('resume').click()");
            await("the rollout goes on to the end").atMost(Duration.ofSeconds(30)).until(() -> browser.eval(WAVES), "1 done, 2 done, 3 done"::equals);
            assertThat(browser.eval("document.getElementById('resume-note').textContent")).isEqualTo("resumed deploy " + second + " at wave 2 of 3");
            assertThat(browser.eval("document.getElementById('rollout-state').textContent")).isEqualTo("done");
            assertThat(browser.eval("document.getElementById('resume').hidden")).isEqualTo(true);
            browser.screenshot(SHOTS.resolve("waves-done.png"));
        }
    }

    private static final String WAVES = "[...document.querySelectorAll('#waves li')].map(w => w.dataset.wave + ' ' + w.dataset.state).join(', ')";

    private static String row(String host) {
        return "document.querySelector('#hosts tr[data-host=\"" + host + "\"]')";
    }

    /** {@value #BULK} hosts whose agents report {@code deploy} converged (no facts: the coordinator compiles nothing for them). */
    private static void reportingHosts(ApiFleet fleet, long deploy) {
        List<CompletableFuture<?>> writes = new ArrayList<>();
        for (int i = 1; i <= BULK; i++) {
            String host = String.format("node%04d", i);
            HostStatus status = HostStatus.newBuilder().setDeploy(deploy).setGraph("0".repeat(64)).setConverged(true).setUpdated(System.currentTimeMillis())
                    .setSummary(Summary.newBuilder().setTotal(5).setStable(5)).build();
            writes.add(fleet.client.kv().put(Keys.status(host), ByteSequence.from(status.toByteArray())));
            writes.add(fleet.client.kv().put(Keys.alive(host), ByteSequence.from(Alive.newBuilder().setVersion("test").build().toByteArray())));
        }
        CompletableFuture.allOf(writes.toArray(CompletableFuture[]::new)).join();
    }
}
