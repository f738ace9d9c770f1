package io.muster.cli;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * A flag that may also be set in {@code muster.conf} (key {@code wait-lock}) or the environment
 * ({@code MUSTER_WAIT_LOCK}): those a host sets once, for every run and for its daemons. Flags that say what one
 * run does ({@code --noop}, {@code --output}, {@code --data}) are not settings: a script reading muster's output
 * must not find it changed by a file it never saw.
 *
 * @param key the flag's long name without its dashes, and the key in the file
 * @param expected what a valid value is, for errors ("a whole number of 1 or more")
 * @param valid whether a value is one
 */
record Setting(String key, String expected, java.util.function.Predicate<String> valid) {
    static final List<Setting> ALL = List.of(
            new Setting("etcd", "etcd client URLs, comma-separated", v -> !v.isBlank()),
            new Setting("namespace", "a key prefix", v -> true),
            new Setting("connect-timeout", "seconds above 0", Setting::positiveSeconds),
            new Setting("etcd-cert", "a PEM certificate file", v -> !v.isBlank()),
            new Setting("etcd-key", "a PEM private key file", v -> !v.isBlank()),
            new Setting("etcd-ca", "a PEM CA certificate file", v -> !v.isBlank()),
            new Setting("prefix", "a directory", v -> !v.isBlank()),
            new Setting("host", "this host's name in the fleet (agent)", v -> !v.isBlank()),
            new Setting("facts", "a YAML or JSON file of facts", v -> !v.isBlank()),
            new Setting("sema", "a whole number of 1 or more", v -> wholeAtLeast(v, 1)),
            new Setting("max-apply-depth", "a whole number of 1 or more", v -> wholeAtLeast(v, 1)),
            new Setting("compile-threads", "a whole number of 1 or more", v -> wholeAtLeast(v, 1)),
            new Setting("wait-lock", "seconds, 0 or more", v -> seconds(v) >= 0),
            new Setting("lease-ttl", "a whole number of seconds above 0", v -> wholeAtLeast(v, 1)),
            new Setting("color", "auto, always or never", v -> List.of("auto", "always", "never").contains(v)),
            new Setting("prometheus", "true or false", v -> v.equals("true") || v.equals("false")),
            new Setting("prometheus-listen", "HOST:PORT", v -> v.contains(":")),
            new Setting("listen", "HOST:PORT", v -> v.contains(":")),
            new Setting("api-token-file", "a file holding the API's bearer token", v -> !v.isBlank()),
            new Setting("api-host", "names the API may be reached by, comma-separated", v -> !v.isBlank()));

    static final Map<String, Setting> BY_KEY = ALL.stream().collect(Collectors.toUnmodifiableMap(Setting::key, Function.identity()));

    /** {@code MUSTER_WAIT_LOCK} for {@code wait-lock}. */
    String variable() {
        return "MUSTER_" + key.toUpperCase(Locale.ROOT).replace('-', '_');
    }

    private static boolean wholeAtLeast(String value, long least) {
        try {
            return Long.parseLong(value) >= least;
        } catch (NumberFormatException e) {
            return false;
        }
    }

    private static double seconds(String value) {
        try {
            double seconds = Double.parseDouble(value);
            return Double.isFinite(seconds) ? seconds : Double.NaN;
        } catch (NumberFormatException e) {
            return Double.NaN;
        }
    }

    private static boolean positiveSeconds(String value) {
        return seconds(value) > 0;
    }
}
