package io.muster.coordinator.http;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import io.etcd.jetcd.KeyValue;
import io.etcd.jetcd.options.GetOption;
import io.muster.agent.etcd.Etcd;
import io.muster.agent.etcd.EtcdUnreachableException;
import io.muster.agent.etcd.Keys;
import io.muster.coordinator.deploy.DeployException;
import io.muster.coordinator.deploy.DeployHistory;
import io.muster.coordinator.deploy.DeploysJson;
import io.muster.coordinator.etcd.Pages;
import io.muster.coordinator.etcd.Stored;
import io.muster.coordinator.rollout.RolloutCommands;
import io.muster.coordinator.rollout.Rollouts;
import io.muster.coordinator.status.ExportsOutput;
import io.muster.coordinator.status.FleetExports;
import io.muster.engine.report.JsonDocument;
import io.muster.proto.fleet.Deploy;
import io.muster.proto.fleet.Rollout;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The JSON API under {@code /api/v1/} (the event stream aside: {@link EventStream}). Reads are GETs that anyone
 * who reaches the address may make; a change (a rollback, a resume) is a POST that needs the bearer token, and none is
 * possible when the coordinator has no token. Every answer, a refusal too, is a JSON document.
 */
final class ApiHandler implements HttpHandler {
    private static final Logger LOG = LoggerFactory.getLogger(ApiHandler.class);
    private static final Pattern HOST = Pattern.compile("/api/v1/hosts/([^/]+)");
    private static final Pattern DEPLOY = Pattern.compile("/api/v1/deploys/([0-9]{1,18})");
    private static final Pattern CHANGE = Pattern.compile("/api/v1/deploys/([0-9]{1,18})/(rollback|resume)");

    private final Etcd etcd;
    private final FleetFeed feed;
    private final HostDetails details;
    private final DeployHistory history;
    private final RolloutCommands commands;
    private final Optional<ApiToken> token;
    private final String name;
    private final BooleanSupplier leading;

    /**
     * @param name this coordinator's name in the election
     * @param leading whether it leads now
     */
    ApiHandler(Etcd etcd, FleetFeed feed, HostDetails details, Optional<ApiToken> token, String name, BooleanSupplier leading) {
        this.etcd = etcd;
        this.feed = feed;
        this.details = details;
        this.history = new DeployHistory(etcd);
        this.commands = new RolloutCommands(etcd, Clock.systemUTC());
        this.token = token;
        this.name = name;
        this.leading = leading;
    }

    @Override
    public void handle(HttpExchange exchange) throws IOException {
        try {
            route(exchange, exchange.getRequestURI().getPath());
        } catch (EtcdUnreachableException e) {
            Exchanges.error(exchange, 503, e.getMessage());
        } catch (RuntimeException e) {
            LOG.error("{} {}: {}", exchange.getRequestMethod(), exchange.getRequestURI(), e.toString(), e);
            Exchanges.error(exchange, 500, "internal error: " + e);
        }
    }

    private void route(HttpExchange exchange, String path) throws IOException, EtcdUnreachableException {
        Matcher change = CHANGE.matcher(path);
        if (change.matches()) {
            if (!allowed(exchange, "POST")) return;
            long id = Long.parseLong(change.group(1));
            if (change.group(2).equals("rollback")) rollback(exchange, id);
            else resume(exchange, id);
            return;
        }
        if (!allowed(exchange, "GET")) return;
        Matcher host = HOST.matcher(path);
        Matcher deploy = DEPLOY.matcher(path);
        if (path.equals("/api/v1") || path.equals("/api/v1/")) {
            Exchanges.json(exchange, 200, info());
        } else if (path.equals("/api/v1/hosts")) {
            hosts(exchange);
        } else if (host.matches()) {
            try {
                Keys.checkHost(host.group(1));
            } catch (IllegalArgumentException e) {
                Exchanges.error(exchange, 400, e.getMessage());
                return;
            }
            Map<String, Object> doc = details.read(host.group(1), feed.snapshot().current());
            if (doc == null) Exchanges.error(exchange, 404, "no host " + host.group(1) + " (see /api/v1/hosts)");
            else Exchanges.json(exchange, 200, doc);
        } else if (path.equals("/api/v1/deploys")) {
            Exchanges.json(exchange, 200, deploys());
        } else if (deploy.matches()) {
            long id = Long.parseLong(deploy.group(1));
            Optional<Deploy> found = id < 1 ? Optional.empty() : history.get(id);
            if (found.isEmpty()) Exchanges.error(exchange, 404, "no deploy " + id + " (see /api/v1/deploys)");
            else Exchanges.json(exchange, 200, ApiJson.deployProgress(found.get(), feed.snapshot(), Rollouts.read(etcd, id)));
        } else if (path.equals("/api/v1/exports")) {
            String json = ExportsOutput.json(FleetExports.read(etcd, Exchanges.query(exchange).get("kind")));
            exchange.getResponseHeaders().set("Cache-Control", "no-store");
            Exchanges.bytes(exchange, 200, "application/json", json.getBytes(StandardCharsets.UTF_8));
        } else {
            Exchanges.error(exchange, 404, "no such resource: " + path + " (the API: /api/v1/hosts, /api/v1/deploys, /api/v1/exports, /api/v1/events)");
        }
    }

    /** {@code muster deploys --output json}'s document, each deploy with {@code "rollout"}: its summary, null when it went out at once. */
    @SuppressWarnings("unchecked")
    private Map<String, Object> deploys() throws EtcdUnreachableException {
        Map<Long, Rollout> rollouts = new HashMap<>();
        Pages.forEach(etcd, Keys.ROLLOUTS, kv -> rollouts.put(Keys.parseRollout(kv.getKey()), Stored.parse(Rollout.parser(), kv)));
        Map<String, Object> doc = DeploysJson.document(history.current(), history.list());
        for (Object entry : (List<Object>) doc.get("deploys")) {
            Map<String, Object> deploy = (Map<String, Object>) entry;
            Rollout rollout = rollouts.get((Long) deploy.get("id"));
            deploy.put("rollout", rollout == null ? null : WavesJson.summary(rollout));
        }
        return doc;
    }

    /** Whether the request uses {@code method} (HEAD counting as GET); else it is refused with 405. */
    private static boolean allowed(HttpExchange exchange, String method) throws IOException {
        String used = exchange.getRequestMethod();
        if (used.equals(method) || method.equals("GET") && used.equals("HEAD")) return true;
        exchange.getResponseHeaders().set("Allow", method.equals("GET") ? "GET, HEAD" : method);
        Exchanges.error(exchange, 405, used + " is not allowed here; use " + method);
        return false;
    }

    /** {@code {"schema", "coordinator", "leading", "leader", "changes"}}: who answers, who leads, whether changes are enabled. */
    private Map<String, Object> info() throws EtcdUnreachableException {
        Map<String, Object> doc = JsonDocument.create();
        doc.put("coordinator", name);
        doc.put("leading", leading.getAsBoolean());
        doc.put("leader", leader());
        doc.put("changes", token.isPresent());
        return doc;
    }

    /** The leader's name: the value of the oldest key in the election; null when none leads. */
    private String leader() throws EtcdUnreachableException {
        List<KeyValue> kvs = etcd.await(etcd.kv().get(Keys.LEADER, GetOption.builder().isPrefix(true)
                .withSortField(GetOption.SortTarget.CREATE).withSortOrder(GetOption.SortOrder.ASCEND).withLimit(1).build())).getKvs();
        return kvs.isEmpty() ? null : kvs.getFirst().getValue().toString(StandardCharsets.UTF_8);
    }

    private void hosts(HttpExchange exchange) throws IOException {
        String state = Exchanges.query(exchange).get("state");
        HostState only = state == null ? null : HostState.parse(state);
        if (state != null && only == null) {
            Exchanges.error(exchange, 400, "state: expected converged, drifting, failed or lost, got '" + state + "'");
            return;
        }
        Exchanges.json(exchange, 200, ApiJson.hosts(feed.snapshot(), only));
    }

    /** Deploy {@code id}, which must be current, gives way to the deploy before it (its rollout's previous one, when it goes out in waves). */
    private void rollback(HttpExchange exchange, long id) throws IOException, EtcdUnreachableException {
        if (!changeAllowed(exchange, id)) return;
        try {
            DeployHistory.Rollback done = commands.rollbackOf(id);
            LOG.info("API: rolled deploy {} back to {}", done.from(), done.to());
            Map<String, Object> doc = JsonDocument.create();
            doc.put("from", done.from());
            doc.put("to", done.to());
            Exchanges.json(exchange, 200, doc);
        } catch (DeployException e) {
            Exchanges.error(exchange, 409, e.getMessage());
        }
    }

    /** Deploy {@code id}'s halted rollout checks its halted wave again and goes on, as {@code muster deploy --resume ID}. */
    private void resume(HttpExchange exchange, long id) throws IOException, EtcdUnreachableException {
        if (!changeAllowed(exchange, id)) return;
        try {
            Rollout resumed = commands.resume(id);
            LOG.info("API: resumed deploy {}'s rollout at wave {}", id, resumed.getWave() + 1);
            Map<String, Object> doc = JsonDocument.create();
            doc.put("deploy", id);
            doc.put("wave", resumed.getWave() + 1);
            doc.put("waves", resumed.getWavesCount());
            Exchanges.json(exchange, 200, doc);
        } catch (DeployException e) {
            Exchanges.error(exchange, 409, e.getMessage());
        }
    }

    /** Whether a change to deploy {@code id} may be made: changes are enabled, the token given, the deploy there; else refused. */
    private boolean changeAllowed(HttpExchange exchange, long id) throws IOException, EtcdUnreachableException {
        if (token.isEmpty()) {
            Exchanges.error(exchange, 403, "changes are disabled: the coordinator was started without --api-token-file");
            return false;
        }
        if (!token.get().admits(exchange.getRequestHeaders().getFirst("Authorization"))) {
            exchange.getResponseHeaders().set("WWW-Authenticate", "Bearer realm=\"muster\"");
            Exchanges.error(exchange, 401, "a change needs the API token: Authorization: Bearer TOKEN (the content of --api-token-file)");
            return false;
        }
        if (id < 1 || history.get(id).isEmpty()) {
            Exchanges.error(exchange, 404, "no deploy " + id + " (see /api/v1/deploys)");
            return false;
        }
        return true;
    }
}
