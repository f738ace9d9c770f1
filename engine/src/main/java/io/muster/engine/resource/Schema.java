package io.muster.engine.resource;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * The parameters a kind accepts and the values it produces for {@code lookup}. The {@code nameProperty}
 * takes the resource's name when it is not set (a file's path, an exec's command).
 */
public record Schema(Map<String, Property> properties, String nameProperty, Set<String> outputs) {

    public static Schema of(String nameProperty, Set<String> outputs, Property... properties) {
        Map<String, Property> byName = new LinkedHashMap<>();
        for (Property p : properties) byName.put(p.name(), p);
        return new Schema(Map.copyOf(byName), nameProperty, Set.copyOf(outputs));
    }

    public Property property(String name) {
        return properties.get(name);
    }
}
