package io.muster.engine.facts;

import io.muster.engine.util.Maps;
import java.io.IOException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * The host's facts, gathered on first use: a manifest that reads no fact pays for none, and one that
 * reads {@code facts.os.family} does not wait for a DNS lookup of the fqdn. Overrides ({@code --fact},
 * {@code --facts}) are merged over the gathered values, key by key.
 */
public final class Facts extends AbstractMap<String, Object> {
    private final Map<String, Supplier<Object>> sources = new LinkedHashMap<>();
    private final Map<String, Object> gathered = new ConcurrentHashMap<>();
    private final Map<String, Object> overrides;

    private Facts(Map<String, Object> overrides) {
        this.overrides = overrides;
        sources.put("hostname", Facts::hostname);
        sources.put("fqdn", Facts::fqdn);
        // the host's name in the fleet (Salt's id grain, Puppet's certname): the agent's --host sets it
        sources.put("host", () -> get("fqdn"));
        sources.put("domain", () -> {
            String fqdn = (String) get("fqdn");
            int dot = fqdn.indexOf('.');
            return dot < 0 ? "" : fqdn.substring(dot + 1);
        });
        sources.put("os", Facts::os);
        sources.put("arch", () -> System.getProperty("os.arch"));
        sources.put("cpus", () -> (long) Runtime.getRuntime().availableProcessors());
        sources.put("memory", Facts::memory);
        sources.put("networking", Facts::networking);
        sources.put("ip_addresses", () -> addresses(false));
        sources.put("environment", () -> System.getenv().getOrDefault("MUSTER_ENVIRONMENT", "production"));
        sources.put("user", () -> System.getProperty("user.name"));
    }

    /** Facts of this host, with {@code overrides} (nested maps) merged over them. */
    public static Map<String, Object> of(Map<String, Object> overrides) {
        return new Facts(overrides);
    }

    /** The host name alone, cheaply: it labels every report. */
    public static String hostname() {
        try {
            String name = Files.readString(Path.of("/proc/sys/kernel/hostname")).strip();
            if (!name.isEmpty()) return name;
        } catch (IOException ignored) {
            // not Linux: ask Java
        }
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            return "localhost";
        }
    }

    @Override
    public Object get(Object key) {
        if (!(key instanceof String name) || !containsKey(name)) return null;
        return gathered.computeIfAbsent(name, this::gather);
    }

    @Override
    public boolean containsKey(Object key) {
        return sources.containsKey(key) || overrides.containsKey(key);
    }

    private Object gather(String name) {
        Supplier<Object> source = sources.get(name);
        Object real = source == null ? null : source.get();
        Object override = overrides.get(name);
        if (override == null) return real;
        if (real instanceof Map<?, ?> a && override instanceof Map<?, ?> b) return Maps.deepMerge(Maps.cast(a), Maps.cast(b));
        return override;
    }

    @Override
    public Set<Entry<String, Object>> entrySet() {
        Map<String, Object> all = new LinkedHashMap<>();
        for (String name : sources.keySet()) all.put(name, get(name));
        for (String name : overrides.keySet()) all.put(name, get(name));
        return Collections.unmodifiableMap(all).entrySet();
    }

    private static String fqdn() {
        try {
            return InetAddress.getLocalHost().getCanonicalHostName();
        } catch (UnknownHostException e) {
            return hostname();
        }
    }

    private static Map<String, Object> os() {
        Map<String, String> release = osRelease();
        String id = release.getOrDefault("ID", System.getProperty("os.name").toLowerCase(Locale.ROOT));
        Map<String, Object> os = new LinkedHashMap<>();
        os.put("family", family(id, release.getOrDefault("ID_LIKE", "")));
        os.put("name", id);
        os.put("release", release.getOrDefault("VERSION_ID", ""));
        os.put("codename", release.getOrDefault("VERSION_CODENAME", ""));
        os.put("description", release.getOrDefault("PRETTY_NAME", id));
        os.put("kernel", System.getProperty("os.version"));
        return os;
    }

    /** Puppet's os.family: debian for Debian and Ubuntu, redhat for RHEL and its rebuilds, and so on. */
    private static String family(String id, String like) {
        for (String candidate : (id + " " + like).split("\\s+")) {
            switch (candidate) {
                case "debian", "ubuntu" -> { return "debian"; }
                case "rhel", "fedora", "centos", "rocky", "almalinux" -> { return "redhat"; }
                case "suse", "opensuse", "sles" -> { return "suse"; }
                case "arch" -> { return "archlinux"; }
                case "alpine" -> { return "alpine"; }
                default -> { }
            }
        }
        return id;
    }

    private static Map<String, String> osRelease() {
        Map<String, String> values = new LinkedHashMap<>();
        try {
            for (String line : Files.readAllLines(Path.of("/etc/os-release"))) {
                int eq = line.indexOf('=');
                if (eq <= 0 || line.startsWith("#")) continue;
                values.put(line.substring(0, eq), line.substring(eq + 1).replaceAll("^\"|\"$", ""));
            }
        } catch (IOException ignored) {
            // no os-release: fall back on what Java knows
        }
        return values;
    }

    private static Map<String, Object> memory() {
        long kib = 0;
        try {
            for (String line : Files.readAllLines(Path.of("/proc/meminfo"))) {
                if (line.startsWith("MemTotal:")) kib = Long.parseLong(line.replaceAll("[^0-9]", ""));
            }
        } catch (IOException | NumberFormatException ignored) {
            // unknown: report 0
        }
        return Map.of("total_bytes", kib * 1024, "total_mb", kib / 1024);
    }

    private static Map<String, Object> networking() {
        Map<String, Object> interfaces = new LinkedHashMap<>();
        for (NetworkInterface nic : nics()) {
            List<String> ips = nic.inetAddresses().map(Facts::address).toList();
            interfaces.put(nic.getName(), Map.of("ip", ips, "up", isUp(nic)));
        }
        List<String> v4 = addresses(true);
        Map<String, Object> net = new LinkedHashMap<>();
        net.put("ip", v4.isEmpty() ? "" : v4.get(0));
        net.put("interfaces", interfaces);
        return net;
    }

    /** Addresses of interfaces that are up, loopback excluded; IPv4 only when asked. */
    private static List<String> addresses(boolean v4Only) {
        List<String> out = new ArrayList<>();
        for (NetworkInterface nic : nics()) {
            if (!isUp(nic) || isLoopback(nic)) continue;
            nic.inetAddresses().filter(a -> !v4Only || a instanceof Inet4Address).map(Facts::address).forEach(out::add);
        }
        return out;
    }

    private static String address(InetAddress a) {
        String text = a.getHostAddress();
        int zone = text.indexOf('%');
        return zone < 0 ? text : text.substring(0, zone);
    }

    private static List<NetworkInterface> nics() {
        try {
            return NetworkInterface.networkInterfaces().toList();
        } catch (SocketException e) {
            return List.of();
        }
    }

    private static boolean isUp(NetworkInterface nic) {
        try {
            return nic.isUp();
        } catch (SocketException e) {
            return false;
        }
    }

    private static boolean isLoopback(NetworkInterface nic) {
        try {
            return nic.isLoopback();
        } catch (SocketException e) {
            return false;
        }
    }
}
