package io.muster.coordinator;

import io.muster.engine.graph.Graph;

/**
 * How a compiled graph becomes the bytes stored under {@code graphs/<sha256>}: canonical, so equal graphs give
 * equal bytes and hosts with equal graphs share one stored copy.
 */
@FunctionalInterface
public interface GraphEncoder {
    /** A graph's bytes and their sha256 (hex). */
    record Encoded(byte[] bytes, String sha256) {}

    Encoded encode(Graph graph);
}
