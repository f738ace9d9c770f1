package io.muster.engine.compile;

import io.muster.engine.graph.Origin;
import io.muster.engine.manifest.Mark;
import io.muster.engine.manifest.YNode;
import io.muster.engine.resource.ResourceKind;
import io.muster.engine.template.Scope;
import java.util.Map;

/**
 * A resource as written: its kind, rendered name, and properties (defaults merged in), before any
 * property is rendered or checked. {@code scope} is that of the manifest it came from, {@code origin} names
 * that manifest.
 */
record Declaration(ResourceKind kind, String name, Mark mark, Map<String, YNode.Entry> properties, Scope scope, Origin origin) {

    Declaration withProperties(Map<String, YNode.Entry> replaced) {
        return new Declaration(kind, name, mark, replaced, scope, origin);
    }

    String id() {
        return kind.name() + "#" + name;
    }
}
