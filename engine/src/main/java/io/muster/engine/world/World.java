package io.muster.engine.world;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/**
 * How a run reaches the fleet: this host's name, key-value strings, and exported resources. {@code apply}
 * and {@code run} use a {@link MemoryWorld}; the agent plugs in one over etcd. Shaped like an async etcd
 * client: reads and writes return futures, watches take a listener and return a {@link Registration}.
 *
 * <h2>What every World promises</h2>
 * <ul>
 *   <li>A write's future completes once the write is visible to every later read, of this host or another.
 *       A future fails (with the cause) when the World cannot be reached; nothing is half-written.
 *   <li>A watch calls its listener first with the current state, then after each change with the new
 *       state, in the order the changes were made. A write that leaves the state as it was is no change.
 *   <li>Calls to one listener never overlap and never run inside the call that made the change, so a
 *       listener may use the World. What a listener throws is logged and delivery goes on.
 *   <li>Each call carries the whole state (a value, a collection), never a difference: no change is lost and
 *       the last call is always the current state, but a World may deliver a state more than once (the etcd
 *       World after a reconnect), so a listener treats each call as "it is now this". The {@link MemoryWorld}
 *       calls exactly once per change.
 *   <li>After {@link Registration#close()} returns, no call begins; one under way may finish.
 * </ul>
 */
public interface World {
    /** The most a value or an export's content may hold, in UTF-8 bytes: what fits an etcd request with room to spare. */
    int MAX_VALUE_BYTES = 1 << 20;

    /** This host's name, as the fleet knows it. */
    String host();

    /**
     * Whether another host can see what is written here: false for the World of a host running alone ({@code apply},
     * {@code run}), where an export reaches nobody, so exporting is no change.
     */
    default boolean reachesOtherHosts() {
        return true;
    }

    /** The value of {@code key}, or empty when it has none. */
    CompletableFuture<Optional<String>> get(Key key);

    /** Sets {@code key} to {@code value} (at most {@link #MAX_VALUE_BYTES}). */
    CompletableFuture<Void> put(Key key, String value);

    /** Removes {@code key}'s value; a key without one stays so (no change). */
    CompletableFuture<Void> delete(Key key);

    /**
     * Tells {@code listener} the value of {@code key} (empty when it has none) now and after each change, never
     * the same value twice in a row. Changes made in quick succession may reach it as the last of them only (a
     * World behind a network hears them in batches): what a listener can count on is the latest value.
     */
    Registration watch(Key key, Consumer<Optional<String>> listener);

    /**
     * Offers a resource of {@code kind} named {@code name} to the fleet; {@code content} is its declaration,
     * encoded by the caller (the World stores it verbatim, at most {@link #MAX_VALUE_BYTES}). Publishing the
     * same kind and name again replaces it. An agent's exports live as long as the agent does.
     */
    CompletableFuture<Void> publish(String kind, String name, String content);

    /** Takes back this host's export of {@code kind} named {@code name}; one never published is no change. */
    CompletableFuture<Void> withdraw(String kind, String name);

    /**
     * Tells {@code listener} every export of {@code kind}, of all hosts (this one too), sorted by host and
     * name, now and after each change to that collection. Choosing among them is the collector's job.
     */
    Registration collect(String kind, Consumer<List<Exported>> listener);

    /** A watch or a collection being delivered; {@link #close()} ends it. */
    interface Registration extends AutoCloseable {
        @Override
        void close();
    }

    /**
     * A key: private to this host ({@link #host(String)}; another host has its own of the same name) or shared
     * by the fleet ({@link #shared(String)}).
     */
    record Key(boolean shared, String name) {
        public Key {
            Checks.name("key", name);
        }

        public static Key host(String name) {
            return new Key(false, name);
        }

        public static Key shared(String name) {
            return new Key(true, name);
        }

        @Override
        public String toString() {
            return (shared ? "shared:" : "host:") + name;
        }
    }

    /** A resource some host published. */
    record Exported(String host, String kind, String name, String content) {
        public Exported {
            Checks.name("host", host);
            Checks.name("kind", kind);
            Checks.name("name", name);
            Checks.value(content);
        }
    }
}
