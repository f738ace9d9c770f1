package io.muster.engine.format.ccm;

import java.util.Set;

/**
 * One of CCM's resource types: its own properties (besides {@link CommonProperties#NAMES}), its validation as
 * CCM's model has it, and the native resource it becomes. Problems go to the resource ({@link CcmResource#problem}).
 */
interface CcmKind {
    /** CCM's type name, as in {@code - file:}. */
    String name();

    Set<String> properties();

    /** The native resource, its common properties left to {@link CommonProperties}. */
    Translated translate(CcmResource resource);
}
