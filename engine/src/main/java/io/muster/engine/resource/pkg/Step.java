package io.muster.engine.resource.pkg;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What one package needs to be as its resource wants it, as an {@code apt-get install} argument: {@code hello}
 * (install apt's candidate), {@code hello=2.0} (that version, up or down), {@code hello-} (remove; purged with
 * {@code --purge}).
 */
record Step(PackageResource resource, String argument) {

    boolean removal() {
        return argument.endsWith("-");
    }

    boolean purge() {
        return resource.ensure().state() == Ensure.State.PURGED;
    }

    boolean pinned() {
        return resource.ensure().state() == Ensure.State.VERSION;
    }

    /**
     * The steps that {@code resources} need on a host whose database is {@code installed}; {@code candidates}
     * holds what apt would install for each {@code latest} one (a package no source has is missing from it).
     */
    static List<Step> needed(List<PackageResource> resources, Installed installed, Map<String, String> candidates) {
        List<Step> steps = new ArrayList<>();
        for (PackageResource r : resources) {
            String name = r.name();
            String version = installed.version(name);
            Ensure ensure = r.ensure();
            boolean needed = switch (ensure.state()) {
                case PRESENT -> version == null;
                case LATEST -> version == null || !version.equals(candidates.getOrDefault(name, version));
                case VERSION -> !ensure.version().equals(version);
                case ABSENT -> version != null;
                case PURGED -> version != null || installed.configFiles(name);
            };
            if (!needed) continue;
            String argument = switch (ensure.state()) {
                case PRESENT, LATEST -> name;
                case VERSION -> name + "=" + ensure.version();
                case ABSENT, PURGED -> name + "-";
            };
            steps.add(new Step(r, argument));
        }
        return steps;
    }

    /** Why {@code after} does not hold what the resource wants, though apt-get succeeded; null when it does. */
    String unmet(Installed after, Map<String, String> candidates) {
        String name = resource.name();
        String version = after.version(name);
        Ensure ensure = resource.ensure();
        boolean met = switch (ensure.state()) {
            case PRESENT -> version != null;
            case LATEST -> version != null && version.equals(candidates.getOrDefault(name, version));
            case VERSION -> ensure.version().equals(version);
            case ABSENT -> version == null;
            case PURGED -> version == null && !after.configFiles(name);
        };
        return met ? null : "apt-get succeeded, but package '" + name + "' is " + after.describe(name) + ", not " + ensure;
    }
}
