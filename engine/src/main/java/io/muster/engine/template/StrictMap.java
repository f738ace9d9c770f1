package io.muster.engine.template;

import java.util.AbstractMap;
import java.util.Map;
import java.util.Set;

/**
 * A read-only view of {@code data}, {@code facts} or {@code env} for expressions: reading a missing key
 * throws {@link UnknownNameException} naming the full path ({@code data.prot}) and the closest key.
 */
final class StrictMap extends AbstractMap<String, Object> {
    private final String path;
    private final Map<String, ?> values;

    StrictMap(String path, Map<String, ?> values) {
        this.path = path;
        this.values = values;
    }

    static Object wrap(String path, Object value) {
        if (value instanceof Map<?, ?> map && !(value instanceof StrictMap)) {
            @SuppressWarnings("unchecked")
            Map<String, ?> typed = (Map<String, ?>) map;
            return new StrictMap(path, typed);
        }
        return value;
    }

    @Override
    public Object get(Object key) {
        String name = path + "." + key;
        if (!values.containsKey(key)) {
            throw new UnknownNameException(name, values.keySet().stream().map(k -> path + "." + k).toList());
        }
        return wrap(name, values.get(key));
    }

    @Override
    public boolean containsKey(Object key) {
        return values.containsKey(key);
    }

    @Override
    public int size() {
        return values.size();
    }

    @Override
    @SuppressWarnings("unchecked")
    public Set<Entry<String, Object>> entrySet() {
        return (Set<Entry<String, Object>>) (Set<?>) values.entrySet();
    }

    @Override
    public String toString() {
        return values.toString();
    }
}
