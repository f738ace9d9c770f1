package io.muster.engine.resource.pkg;

import io.muster.engine.resource.Change;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * The dpkg database as one {@code dpkg-query -W} read it: every package dpkg knows, with its status and
 * version. A package counts as installed when dpkg says {@code installed}, or installed with triggers still
 * to run; unpacked or half-configured ones are not (apt finishes them on the next install).
 */
record Installed(Map<String, Entry> packages, Map<String, String> qualified) {
    /** What {@code dpkg-query} prints for each package: name, architecture, status abbreviation, version. */
    static final String FORMAT = "${binary:Package}\\t${Architecture}\\t${db:Status-Abbrev}\\t${Version}\\n";

    /** One package: {@code status} is dpkg's abbreviation ({@code ii }, {@code rc }). */
    record Entry(String name, String status, String version) {
        boolean installed() {
            char current = status.length() > 1 ? status.charAt(1) : 'n';
            return current == 'i' || current == 't' || current == 'W';
        }

        /** Removed, with configuration files left: what {@code purged} still removes. */
        boolean configFiles() {
            return status.length() > 1 && status.charAt(1) == 'c';
        }
    }

    /**
     * @param packages by the name dpkg gives them: plain for the host's architecture and {@code all}
     *     ({@code nginx}), qualified for another ({@code libc6:i386})
     * @param qualified the dpkg name of a package named with its architecture where dpkg names it without
     *     ({@code nginx:amd64} is {@code nginx})
     */
    Installed {
        packages = Map.copyOf(packages);
        qualified = Map.copyOf(qualified);
    }

    /** Reads {@code dpkg-query}'s output in {@link #FORMAT}. */
    static Installed parse(String output) {
        Map<String, Entry> packages = new HashMap<>();
        Map<String, String> qualified = new HashMap<>();
        for (String line : output.split("\n")) {
            String[] fields = line.split("\t", -1);
            if (fields.length != 4) continue;
            packages.put(fields[0], new Entry(fields[0], fields[2], fields[3]));
            if (!fields[0].contains(":")) qualified.put(fields[0] + ":" + fields[1], fields[0]);
        }
        return new Installed(packages, qualified);
    }

    /** The installed version of {@code name}, or null when it is not installed. */
    String version(String name) {
        Entry entry = entry(name);
        return entry != null && entry.installed() ? entry.version() : null;
    }

    boolean configFiles(String name) {
        Entry entry = entry(name);
        return entry != null && entry.configFiles();
    }

    private Entry entry(String name) {
        return packages.get(qualified.getOrDefault(name, name));
    }

    /**
     * What changed from this database to {@code after}, one change per package, named by it: installed
     * ({@code absent -> 2.0}), upgraded or downgraded ({@code 1.0 -> 2.0}), removed ({@code 1.0 -> absent}),
     * purged of its configuration files ({@code config-files -> absent}). Dependencies apt brought in or took
     * out are changes too.
     */
    List<Change> changesTo(Installed after) {
        List<Change> changes = new ArrayList<>();
        TreeSet<String> names = new TreeSet<>(packages.keySet());
        names.addAll(after.packages.keySet());
        for (String name : names) {
            String from = describe(name), to = after.describe(name);
            if (!from.equals(to)) changes.add(Change.of(name, from, to));
        }
        return changes;
    }

    /** How a change names the state of {@code name}: its version, {@code config-files} or {@code absent}. */
    String describe(String name) {
        String version = version(name);
        return version != null ? version : configFiles(name) ? "config-files" : "absent";
    }
}
