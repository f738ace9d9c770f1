package io.muster.engine.format.ccm.hiera;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** CCM reads every whole number of a data document as an int, a {@code 10.0} too: so does muster, as {@code Long}. */
final class Numbers {
    private Numbers() {}

    @SuppressWarnings("unchecked")
    static Map<String, Object> normalized(Map<String, ?> document) {
        return (Map<String, Object>) normalized((Object) document);
    }

    private static Object normalized(Object value) {
        return switch (value) {
            case Map<?, ?> map -> {
                Map<String, Object> out = new LinkedHashMap<>();
                map.forEach((k, v) -> out.put(String.valueOf(k), normalized(v)));
                yield out;
            }
            case List<?> list -> {
                List<Object> out = new ArrayList<>();
                for (Object item : list) out.add(normalized(item));
                yield out;
            }
            case Integer i -> i.longValue();
            case Short s -> s.longValue();
            case Byte b -> b.longValue();
            case BigInteger big when big.bitLength() < 64 -> big.longValue();
            case Double d when d == Math.rint(d) && Math.abs(d) < 9.2e18 -> (long) d.doubleValue();
            case Float f when f == Math.rint(f) && Math.abs(f) < 9.2e18 -> (long) f.floatValue();
            case BigDecimal d -> normalized(d.doubleValue());
            case null, default -> value;
        };
    }
}
