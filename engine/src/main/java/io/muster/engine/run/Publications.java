package io.muster.engine.run;

import io.muster.engine.exports.ExportedResource;
import io.muster.engine.graph.Graph;
import io.muster.engine.graph.Vertex;
import io.muster.engine.resource.Params;
import io.muster.engine.world.World;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import org.slf4j.LoggerFactory;

/**
 * The resources this run exports ({@code meta.export}): published to the World when they run, in place of
 * being applied, and withdrawn when they leave the graph. Keeps what it published, by vertex id, so that a
 * resource rendered as before is no change.
 */
final class Publications {
    private final World world;
    private final Map<String, String> published = new ConcurrentHashMap<>();

    Publications(World world) {
        this.world = world;
    }

    /**
     * Publishes {@code v} rendered as {@code params}, waiting until the World has it.
     *
     * @return whether that changed what other hosts see: never in a World no other host reads
     * @throws ExecutionException why the World did not take it
     */
    boolean publish(Vertex v, Params params) throws ExecutionException, InterruptedException {
        String content = new ExportedResource(v.kind().name(), v.name(), params.values(), v.meta().export().tags(),
                v.meta().export().to()).encode();
        if (content.equals(published.get(v.id()))) return false;
        world.publish(v.kind().name(), v.name(), content).get();
        published.put(v.id(), content);
        return world.reachesOtherHosts();
    }

    /** Whether what is published reaches another host. */
    boolean reachesOtherHosts() {
        return world.reachesOtherHosts();
    }

    /**
     * Withdraws each exported vertex of {@code leaving} that {@code next} no longer exports, without waiting: a
     * World that cannot be reached drops it with the host's lease.
     */
    void withdrawLeaving(List<Vertex> leaving, Graph next) {
        for (Vertex gone : leaving) {
            Vertex stays = next.vertex(gone.id());
            if (gone.meta().exported() && (stays == null || !stays.meta().exported())) withdraw(gone);
        }
    }

    /** Withdraws {@code v}'s export, if this run published it, without waiting (a skipped resource is not exported). */
    void withdraw(Vertex v) {
        if (published.remove(v.id()) == null) return;
        world.withdraw(v.kind().name(), v.name()).exceptionally(e -> {
            LoggerFactory.getLogger("muster.world").warn("withdrawing the export {}: {}", v.id(), e.getMessage());
            return null;
        });
    }
}
