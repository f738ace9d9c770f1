package io.muster.engine.graph;

import java.util.ArrayList;
import java.util.List;

/**
 * The manifest a resource was declared in, and what the chain of aggregates ({@code apply} resources) that
 * led there imposes on it. Manifests are named relative to the directory of the manifest given on the command line.
 *
 * @param chain the manifests from the root to this one ({@code [site.yaml, lib/web.yaml]})
 * @param noop an aggregate on the way asked for noop: the resource never changes anything
 * @param healthCheckOnly an aggregate on the way asked for health checks only: the resource only runs those
 */
public record Origin(List<String> chain, boolean noop, boolean healthCheckOnly) {

    public Origin {
        chain = List.copyOf(chain);
    }

    public static Origin root(String manifest) {
        return new Origin(List.of(manifest), false, false);
    }

    /** The origin of a child manifest's resources: modes can be strengthened, never weakened. */
    public Origin child(String manifest, boolean noop, boolean healthCheckOnly) {
        List<String> longer = new ArrayList<>(chain);
        longer.add(manifest);
        return new Origin(longer, this.noop || noop, this.healthCheckOnly || healthCheckOnly);
    }

    public String manifest() {
        return chain.get(chain.size() - 1);
    }

    /** The manifest, for a resource of a child manifest; null for the root's own resources. */
    public String childManifest() {
        return chain.size() > 1 ? manifest() : null;
    }
}
