package io.muster.coordinator.deploy;

import io.muster.engine.compile.ManifestCompiler;
import io.muster.engine.manifest.ManifestException;
import io.muster.engine.manifest.Problem;
import java.util.List;

/**
 * A bundle's root manifest is compiled before anything is published, for live hosts of the fleet (a few with
 * distinct facts, see {@link HostTarget#live}), or for this host as {@code muster validate} would when none is
 * registered, always with no environment. It is refused when it compiles for none of them: a manifest that
 * does not parse, or is wrong whatever the host, is never published. One that fails on some hosts only is
 * published; those hosts report the error in {@code muster status} and keep their previous graphs.
 */
public final class Validation {
    /** The hosts most often compiled for: a manifest that fails for all of them fails for the fleet. */
    public static final int MAX_HOSTS = 20;

    private Validation() {}

    /**
     * Why the manifest was refused.
     *
     * @param host the host whose errors these are ("this host" when no host is registered)
     * @param problems FILE:LINE:COL: message, each
     */
    public record Refusal(String host, int hosts, List<String> problems) {}

    /** Null when {@code bundle}'s root manifest compiles for one of {@code targets} at least (this host when none). */
    public static Refusal check(Bundle bundle, List<HostTarget> targets) {
        List<HostTarget> tried = targets.isEmpty() ? List.of(HostTarget.local()) : targets;
        Refusal first = null;
        for (HostTarget target : tried) {
            try {
                new ManifestCompiler(target.options()).compile(bundle.root().resolve(bundle.manifest()));
                return null;
            } catch (ManifestException e) {
                if (first == null) first = new Refusal(target.host() == null ? "this host" : target.host(), tried.size(), e.problems().stream().map(Problem::toString).toList());
            }
        }
        return first;
    }
}
