package io.muster.cli;

import io.muster.agent.Agent;
import io.muster.agent.AgentOptions;
import io.muster.agent.CodecGraphDecoder;
import io.muster.agent.etcd.Etcd;
import io.muster.agent.etcd.EtcdOptions;
import io.muster.agent.etcd.EtcdUnreachableException;
import io.muster.coordinator.Coordinator;
import io.muster.coordinator.CoordinatorOptions;
import io.muster.coordinator.GraphEncoder;
import io.muster.coordinator.auth.CertificateRotator;
import io.muster.coordinator.auth.FleetAuth;
import io.muster.coordinator.auth.FleetPki;
import io.muster.coordinator.dev.DevEtcd;
import io.muster.coordinator.http.ApiOptions;
import io.muster.coordinator.http.ApiServer;
import io.muster.coordinator.http.CompileHistogram;
import io.muster.engine.facts.Facts;
import io.muster.engine.codec.GraphCodec;
import io.muster.engine.metrics.Metrics;
import io.muster.engine.resource.Kinds;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

@Command(name = "coordinator", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Run a coordinator: compiles each host's graph for the current deploy with the facts its agent published, "
                + "and publishes it. Several may run: one leads (etcd election), the others take over within --lease-ttl when it dies.",
                "--dev: also start a private etcd (the etcd binary on PATH, Debian package etcd-server) on the --etcd URL, its data "
                        + "under --prefix, for trying muster on one machine; prints the endpoint to use."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:stopped by SIGINT or SIGTERM", "1:etcd unreachable at start, --dev could not start etcd, or --api-token-file cannot be read", "64:usage error"},
        footerHeading = "%nExamples:%n",
        footer = {
                "  muster coordinator --dev --prefix /tmp/dev   an etcd and an agent, to try",
                "  muster coordinator --etcd http://10.0.0.5:2379   one of two or more, for HA",
                "  muster coordinator --listen 0.0.0.0:9240 --api-token-file /etc/muster/api-token   its page for the LAN, rollback allowed"})
final class CoordinatorCommand implements Callable<Integer> {
    /** The engine's canonical encoding: equal graphs give equal bytes, so hosts with equal graphs share one copy. */
    private static final GraphEncoder ENCODER = graph -> {
        GraphCodec.Encoded encoded = GraphCodec.encode(graph);
        return new GraphEncoder.Encoded(encoded.bytes(), encoded.sha256());
    };

    @Option(names = "--dev", description = "Start a private etcd (and this host's agent) in this process.")
    boolean dev;

    @Option(names = "--lease-ttl", paramLabel = "S", description = "A dead leader is replaced within S seconds (default: ${DEFAULT-VALUE}).",
            defaultValue = "" + CoordinatorOptions.DEFAULT_LEASE_TTL_SECONDS)
    long leaseTtl;

    @Option(names = "--prefix", paramLabel = "DIR", description = "Where it keeps state: bundles, and --dev's etcd (default: /var/lib/muster as root, "
            + "else ~/.local/state/muster).")
    Path prefix;

    @Option(names = "--name", paramLabel = "NAME", description = "Its name in the election (default: host name and process id).")
    String name;

    @Option(names = "--pki", paramLabel = "DIR", description = "The fleet's CA and certificates, made the first time, for an https:// etcd "
            + "when no --etcd-cert is given (default: PREFIX/pki).")
    Path pki;

    @Option(names = "--rotate-certificates", paramLabel = "AGE", defaultValue = "30d", converter = AgeConverter.class,
            description = "With --pki: renew each host's etcd certificate once it is AGE old (Nd, Nh, Nm or Ns; 0: never; "
                    + "default: ${DEFAULT-VALUE}). The agent makes the new key; the old certificate is revoked once the new one is installed.")
    Duration rotateCertificates;

    /** {@code 30d}, {@code 12h}, {@code 90m}, {@code 45s} or {@code 0}. */
    static final class AgeConverter implements CommandLine.ITypeConverter<Duration> {
        @Override
        public Duration convert(String value) {
            java.util.regex.Matcher m = java.util.regex.Pattern.compile("([0-9]{1,9})([dhms]?)").matcher(value.strip());
            if (!m.matches() || m.group(2).isEmpty() && !m.group(1).equals("0")) {
                throw new CommandLine.TypeConversionException("expected an age such as 30d, 12h, 90m or 45s (or 0: never), got '" + value + "'");
            }
            long n = Long.parseLong(m.group(1));
            return switch (m.group(2)) {
                case "d" -> Duration.ofDays(n);
                case "h" -> Duration.ofHours(n);
                case "m" -> Duration.ofMinutes(n);
                case "s" -> Duration.ofSeconds(n);
                default -> Duration.ZERO;
            };
        }
    }

    /**
     * A host's compile spends most of its time waiting on etcd (a read and a transaction to store its graph, a
     * transaction for its pointer), so one thread per core left the cores idle: bench/fleet.sh, 1000 hosts on 2
     * cores, a one-line change had all pointers published 11.2 s after the deploy with 2 threads, 4.8 s with 16.
     */
    private static final int COMPILE_THREADS_PER_CORE = 8;

    @Option(names = "--compile-threads", paramLabel = "N", description = "Hosts compiled at once (default: " + COMPILE_THREADS_PER_CORE + " per core).")
    Integer compileThreads;

    @Option(names = "--listen", paramLabel = "HOST:PORT", defaultValue = ApiOptions.DEFAULT_LISTEN,
            description = "Where to serve the HTTP API, the web page and the fleet's /metrics (default: ${DEFAULT-VALUE}).")
    String listen;

    @Option(names = "--api-token-file", paramLabel = "FILE",
            description = "The bearer token the API's changing actions (rollback) need; without it they are refused.")
    Path apiTokenFile;

    @Option(names = "--api-host", paramLabel = "NAME", split = ",",
            description = "A name the API and page may be reached by (repeatable, or comma-separated): its DNS name, a reverse proxy's. "
                    + "Requests naming any other (but an IP address or localhost) are refused with 421, against DNS rebinding.")
    List<String> apiHosts = new ArrayList<>();

    @Mixin
    FleetOptions fleet;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws InterruptedException {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        EtcdOptions options = fleet.etcd(defaultEndpoints());
        CoordinatorOptions coordinatorOptions = options();
        try {
            ApiServer.address(listen);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        }
        AgentOptions agentOptions = dev ? devAgentOptions() : null;
        DevEtcd etcdProcess = null;
        try {
            // https:// without a certificate of its own: the coordinator keeps the fleet's CA, and sets etcd's users up as root
            FleetPki fleetPki = options.tls() != null && !fleet.hasClientCertificate() ? FleetPki.openOrCreate(pkiDir(), options.endpoints()) : null;
            if (dev) {
                etcdProcess = DevEtcd.start(options.endpoints().getFirst(), state().resolve("dev-etcd"), fleetPki == null ? List.of() : fleetPki.etcdFlags());
            }
            EtcdOptions agentEtcd = null; // null: --dev's agent shares the coordinator's connection
            if (fleetPki != null) {
                int updated = setUpAuth(options, fleetPki, dev ? agentOptions.host() : null);
                if (updated > 0) out.println("updated the etcd roles of " + updated + " enrolled hosts to this muster's (graph reads, export kinds)");
                options = options.withTls(fleetPki.tls(FleetPki.COORDINATOR));
                if (dev) agentEtcd = options.withTls(devAgentTls(fleetPki, agentOptions.host()));
            }
            if (dev) {
                out.println("etcd for the fleet: " + options.endpoints().getFirst() + "  (export MUSTER_ETCD=" + options.endpoints().getFirst() + ")");
                if (fleetPki != null) out.println("as the coordinator: " + fleetPki.tls(FleetPki.COORDINATOR).flags());
                out.flush();
            }
            CompileHistogram compiles = new CompileHistogram();
            try (Etcd etcd = Etcd.connect(options);
                 Etcd agentClient = agentEtcd != null ? Etcd.client(agentEtcd) : null;
                 Coordinator coordinator = new Coordinator(etcd, coordinatorOptions, ENCODER, compiles)
                         .rotatingCertificates(fleetPki == null || rotateCertificates.isZero() ? null
                                 : new CertificateRotator(etcd, fleetPki, rotateCertificates, Clock.systemUTC()));
                 ApiServer api = serveApi(etcd, coordinator, compiles, err)) {
                if (api != null) {
                    out.println("API and web page: " + api.url());
                    out.flush();
                }
                CountDownLatch stop = new CountDownLatch(1);
                try (Signals signals = new Signals(signal -> stop.countDown())) {
                    coordinator.start();
                    Etcd forAgent = agentClient != null ? agentClient : etcd;
                    try (Agent agent = dev ? new Agent(agentOptions, forAgent, new CodecGraphDecoder(Kinds.installed()), new Metrics()) : null) {
                        if (agent != null) {
                            agent.start();
                            out.println("agent for this host: " + agentOptions.host() + "  (try: muster status --etcd " + options.endpoints().getFirst()
                                    + (fleetPki != null ? " " + fleetPki.tls(FleetPki.COORDINATOR).flags() : "") + ")");
                            out.flush();
                        }
                        stop.await();
                    }
                }
            }
            return 0;
        } catch (EtcdUnreachableException | IOException e) {
            err.println("muster: " + e.getMessage());
            return 1;
        } finally {
            if (etcdProcess != null) etcdProcess.close();
        }
    }

    /**
     * The API, page and fleet metrics; null when --listen's address is taken (a warning says so): the fleet's
     * convergence must not wait on a web page, so the coordinator runs on without them. A token file that cannot
     * be read stops the start, as any other bad setting.
     */
    private ApiServer serveApi(Etcd etcd, Coordinator coordinator, CompileHistogram compiles, PrintWriter err)
            throws IOException, EtcdUnreachableException {
        try {
            return ApiServer.start(etcd, new ApiOptions(listen, apiTokenFile, apiHosts), coordinator.name(), coordinator::leading, compiles);
        } catch (ApiServer.ListenException e) {
            err.println("muster: warning: " + e.getMessage() + "; the coordinator runs without its API and web page");
            err.flush();
            return null;
        }
    }

    /** --dev's etcd is https:// unless --etcd (or $MUSTER_ETCD) says otherwise: the default is secure. */
    private String defaultEndpoints() {
        String configured = EtcdOptions.defaultEndpoints();
        return dev && configured.equals(EtcdOptions.DEFAULT_ENDPOINT) ? DEV_ENDPOINT : configured;
    }

    private static final String DEV_ENDPOINT = "https://127.0.0.1:2379";

    /**
     * As etcd's root: the fleet's users and roles, and auth on (again at each start: what is there stays), every
     * enrolled host's role given what this muster grants a host (a kind added since can be exported). An etcd that
     * does not trust the fleet's CA refuses the root certificate: the message says how to start it.
     *
     * @return how many enrolled hosts' roles changed
     */
    private static int setUpAuth(EtcdOptions options, FleetPki fleetPki, String agentHost) throws EtcdUnreachableException {
        try (Etcd root = Etcd.connect(options.withTls(fleetPki.tls(FleetPki.ROOT)))) {
            FleetAuth auth = new FleetAuth(root);
            auth.setUp();
            if (agentHost != null) auth.addHost(agentHost, Kinds.installed().names());
            return auth.updateHosts(Kinds.installed().names());
        } catch (EtcdUnreachableException e) {
            throw new EtcdUnreachableException(e.getMessage() + "; etcd must run with " + String.join(" ", fleetPki.etcdFlags()), e);
        }
    }

    /** The --dev agent's own certificate: it may write what a host may, no more. */
    private static io.muster.agent.etcd.EtcdTls devAgentTls(FleetPki fleetPki, String host) throws IOException {
        String file = FleetAuth.hostUser(host);
        if (!java.nio.file.Files.exists(fleetPki.dir().resolve(file + ".key"))) fleetPki.issueHost(host).write(fleetPki.dir(), file);
        return fleetPki.tls(file);
    }

    private Path pkiDir() {
        return pki != null ? pki.toAbsolutePath() : state().resolve("pki");
    }

    /** --dev's agent: this host by its fqdn, its state beside the coordinator's (PREFIX/agent). */
    private AgentOptions devAgentOptions() {
        return new AgentOptions(String.valueOf(Facts.of(java.util.Map.of()).get("fqdn")), state(), java.util.Map.of(),
                AgentOptions.DEFAULT_LEASE_TTL, 1, Runtime.getRuntime().availableProcessors());
    }

    private CoordinatorOptions options() {
        String me = name != null ? name : Facts.hostname() + "-" + ProcessHandle.current().pid();
        int threads = compileThreads != null ? compileThreads : COMPILE_THREADS_PER_CORE * Runtime.getRuntime().availableProcessors();
        try {
            return new CoordinatorOptions(me, Duration.ofSeconds(leaseTtl), threads, state().resolve("coordinator"), CoordinatorOptions.DEFAULT_COMPACT_EVERY);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        }
    }

    private Path state() {
        return prefix != null ? prefix.toAbsolutePath() : RunFlags.defaultPrefix();
    }
}
