package io.muster.engine.resource;

/**
 * A resource that reacts to a notification ({@code notify}/{@code subscribe} from a resource that
 * changed): an exec re-runs, a service restarts. {@link Context#refresh()} says whether one arrived.
 */
public interface Refreshable extends Resource {}
