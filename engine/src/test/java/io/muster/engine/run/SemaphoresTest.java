package io.muster.engine.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.muster.engine.graph.Graph;
import io.muster.engine.testing.Manifests;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code meta.sema} and {@code --sema}: who may run at once, and what a resize does. */
class SemaphoresTest {
    @TempDir
    Path dir;

    @Test
    void aNamedSemaphoreHoldsAsManyAsItsSizeAndTheGlobalOneBoundsAll() throws Exception {
        Semaphores semaphores = new Semaphores(3);
        Semaphores.Permits a = semaphores.acquire(List.of("db:2"));
        Semaphores.Permits b = semaphores.acquire(List.of("db:2"));
        Future<Semaphores.Permits> third = acquireLater(semaphores, List.of("db:2"));
        Semaphores.Permits other = semaphores.acquire(List.of()); // the global one has a third permit
        assertThat(third).isNotDone();
        a.close();
        Semaphores.Permits c = third.get(); // a's permit went to it
        Future<Semaphores.Permits> fourth = acquireLater(semaphores, List.of()); // 3 held: the global one is full
        assertThat(fourth).isNotDone();
        other.close();
        fourth.get().close();
        b.close();
        c.close();
    }

    @Test
    void aResizeTakesEffectForTheNextAcquire() throws Exception {
        Semaphores semaphores = new Semaphores(10);
        semaphores.use(graph("db:1"));
        Semaphores.Permits held = semaphores.acquire(List.of("db"));
        Future<Semaphores.Permits> waiting = acquireLater(semaphores, List.of("db"));
        assertThat(waiting).isNotDone();
        semaphores.use(graph("db:2"));
        Semaphores.Permits afterResize = semaphores.acquire(List.of("db")); // the new semaphore has room
        held.close(); // goes back to the old one, which the waiting acquire still gets
        waiting.get().close();
        afterResize.close();
    }

    private Graph graph(String sema) throws Exception {
        return new Manifests(dir).compile("""
                resources:
                  - exec:
                      - a: {command: "true", meta: {sema: ["%s"]}}
                """.formatted(sema));
    }

    /** Acquires on another thread; the future is done when it got its permits (after the test saw it wait). */
    private static Future<Semaphores.Permits> acquireLater(Semaphores semaphores, List<String> specs) {
        CompletableFuture<Semaphores.Permits> got = new CompletableFuture<>();
        Thread t = Thread.ofVirtual().start(() -> {
            try {
                got.complete(semaphores.acquire(specs));
            } catch (InterruptedException e) {
                got.completeExceptionally(e);
            }
        });
        await().until(() -> got.isDone() || t.getState() == Thread.State.WAITING);
        return got;
    }
}
