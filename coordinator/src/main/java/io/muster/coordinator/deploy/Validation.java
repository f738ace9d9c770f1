package io.muster.coordinator.deploy;

import io.muster.engine.compile.ManifestCompiler;
import io.muster.engine.manifest.ManifestException;
import io.muster.engine.manifest.ParsedManifests;
import io.muster.engine.manifest.Problem;
import java.util.List;

/**
 * A bundle's root manifest is compiled before anything is published, for live hosts of the fleet (a few with
 * distinct facts, see {@link HostTarget#live}), or for this host as {@code muster validate} would when none is
 * registered, always with no environment. It is refused when it does not compile for one of them, with that
 * host's errors: a deploy that would break a live host is never published. A host that registers later, or
 * one not among those tried, may still fail to compile: it reports the error in {@code muster status} and
 * keeps its previous graph.
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

    /** Null when {@code bundle}'s root manifest compiles for every one of {@code targets} (this host when none). */
    public static Refusal check(Bundle bundle, List<HostTarget> targets) {
        List<HostTarget> tried = targets.isEmpty() ? List.of(HostTarget.local()) : targets;
        ParsedManifests parsed = new ParsedManifests(); // the bundle does not change while it is checked
        for (HostTarget target : tried) {
            try {
                new ManifestCompiler(target.options().withManifests(parsed)).compile(bundle.root().resolve(bundle.manifest()));
            } catch (ManifestException e) {
                return new Refusal(target.host() == null ? "this host" : target.host(), tried.size(), e.problems().stream().map(Problem::toString).toList());
            }
        }
        return null;
    }
}
