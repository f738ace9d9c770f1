package io.muster.coordinator.deploy;

import io.muster.proto.value.Entry;
import io.muster.proto.value.Value;
import io.muster.proto.value.ValueMap;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** A host's published facts as the compiler reads facts: maps, lists, strings, Long, Double, BigInteger, Boolean, null. */
public final class FactValues {
    private FactValues() {}

    public static Map<String, Object> map(ValueMap map) {
        Map<String, Object> out = new LinkedHashMap<>();
        for (Entry e : map.getEntriesList()) out.put(e.getKey(), value(e.getValue()));
        return out;
    }

    private static Object value(Value v) {
        return switch (v.getKindCase()) {
            case NULL, KIND_NOT_SET -> null;
            case BOOLEAN -> v.getBoolean();
            case INTEGER -> v.getInteger();
            case DECIMAL -> v.getDecimal();
            case TEXT -> v.getText();
            case BIG_INTEGER -> new BigInteger(v.getBigInteger());
            case LIST -> {
                List<Object> list = new ArrayList<>();
                for (Value item : v.getList().getItemsList()) list.add(value(item));
                yield list;
            }
            case MAP -> map(v.getMap());
        };
    }
}
