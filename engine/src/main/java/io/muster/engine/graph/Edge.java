package io.muster.engine.graph;

/** {@code from} must converge before {@code to} runs. */
public record Edge(String from, String to, EdgeReason reason) {}
