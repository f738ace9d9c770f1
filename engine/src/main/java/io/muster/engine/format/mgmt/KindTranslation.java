package io.muster.engine.format.mgmt;

import io.muster.engine.manifest.YNode;
import java.util.Map;

/** How one mgmt kind becomes a muster kind: the native kind's name and the native properties of a resource. */
interface KindTranslation {

    /** The muster kind ({@code svc} is {@code service}). */
    String nativeKind();

    /** The native properties of {@code resource}, marked where mgmt's were; problems go to the resource. */
    Map<String, YNode> properties(MgmtResource resource);
}
