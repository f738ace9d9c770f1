package io.muster.engine.resource;

import java.util.List;

/**
 * A resource that can be converged together with others of its kind in one {@code checkApply}, as mgmt's
 * autogroup does: packages installed in one transaction share its fixed cost (fetching the index, taking
 * the lock).
 *
 * <p>The compiler offers a resource to a group only when the engine can treat them as one: same kind,
 * {@code meta.autogroup} on, equal metaparams, declared in the same manifest, no {@code control}
 * conditions, no value read at run time by or from another resource, and no path between it and the
 * group in the graph (merging would make a cycle). The group takes the first member's id and place; the
 * others' edges move to it.
 */
public interface Groupable extends Resource {

    /** Whether {@code other}, of the same kind, may join the group this resource leads. */
    boolean groupsWith(Groupable other);

    /**
     * The resource that converges this one and {@code others} as one: its {@code checkApply} reports the
     * changes of all of them, its {@code watch} covers all of them, and it is {@link Refreshable} when the
     * group can be. {@code reverse} needs no group: the engine asks each member, built alone, to remember
     * and reverse.
     */
    Resource group(List<Groupable> others);
}
