package io.muster.engine.format.ccm;

import io.muster.engine.manifest.Mark;
import io.muster.engine.manifest.YNode;
import java.util.LinkedHashMap;
import java.util.Map;

/** A CCM resource as a native one: muster's kind, its name, and its native properties (marked where CCM's were written). */
record Translated(String kind, String name, Mark mark, Map<String, YNode> properties) {

    static Translated of(String kind, CcmResource resource) {
        return new Translated(kind, resource.name(), resource.mark(), new LinkedHashMap<>());
    }

    Translated put(String property, Object value, Mark at) {
        properties.put(property, Nodes.of(value, at));
        return this;
    }

    /** The node as written: a value the CCM dialect renders at run time. */
    Translated putNode(String property, YNode node) {
        properties.put(property, node);
        return this;
    }

    String id() {
        return kind + "#" + name;
    }
}
