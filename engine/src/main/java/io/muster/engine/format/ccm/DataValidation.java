package io.muster.engine.format.ccm;

import io.muster.engine.format.ccm.expr.CcmEnv;
import io.muster.engine.format.ccm.expr.CcmEvaluationException;
import io.muster.engine.format.ccm.expr.CcmExpression;
import io.muster.engine.format.ccm.expr.CcmFunction;
import io.muster.engine.format.ccm.expr.CcmSyntaxException;
import io.muster.engine.manifest.Problems;
import java.math.BigDecimal;
import java.net.InetAddress;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * Checks a manifest's resolved data against its {@link DataRules}, as CCM does before anything runs: a required
 * key has a value (not null, not {@code ""}; {@code false} and {@code 0} are values), and a scalar with a
 * validation makes it true, the value as text in {@code value}, with choria's validator functions
 * ({@code isShellSafe}, {@code isIP}, {@code isIPv4}, {@code isIPv6}, {@code isInt}, {@code isFloat},
 * {@code isDuration}, {@code isRegex}, each also in snake case). Every failure is reported at its key.
 */
final class DataValidation {
    private static final Pattern IPV4 = Pattern.compile("((25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)\\.){3}(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)");
    private static final Pattern IPV6 = Pattern.compile("[0-9A-Fa-f:.]*:[0-9A-Fa-f:.]*");
    private static final String SHELL_UNSAFE = "`$;|&><()\n";

    private DataValidation() {}

    static void check(Map<String, Object> data, List<DataRules.Rule> rules, Problems problems) {
        for (DataRules.Rule rule : rules) {
            Object value = lookup(data, rule.key());
            if (rule.required() && (value == null || "".equals(value))) {
                problems.add(rule.mark(), "key \"" + rule.key() + "\" is required but has no value");
                continue;
            }
            if (rule.validation().isEmpty() || value == null || value instanceof Map<?, ?> || value instanceof List<?>) continue;
            String text = String.valueOf(value);
            try {
                Object ok = CcmExpression.parse(rule.validation()).evaluate(environment(text));
                if (!Boolean.TRUE.equals(ok)) problems.add(rule.mark(), "key \"" + rule.key() + "\" failed validation \"" + rule.validation() + "\"");
            } catch (CcmSyntaxException e) {
                problems.add(rule.mark(), "key \"" + rule.key() + "\" validation \"" + rule.validation() + "\" failed: " + e.error().message());
            } catch (CcmEvaluationException e) {
                problems.add(rule.mark(), "key \"" + rule.key() + "\" validation \"" + rule.validation() + "\" failed: " + e.error().reason());
            }
        }
    }

    private static Object lookup(Map<String, Object> data, String key) {
        Object current = data;
        for (String part : key.split("\\.")) {
            if (!(current instanceof Map<?, ?> map)) return null;
            current = map.get(part);
        }
        return current;
    }

    private static CcmEnv environment(String value) {
        CcmEnv env = CcmEnv.of(Map.of(), Map.of(), Map.of()).withVariable("value", value).withVariable("Value", value);
        env = both(env, "isShellSafe", "is_shellsafe", test(s -> s.strip().chars().noneMatch(c -> SHELL_UNSAFE.indexOf(c) >= 0)));
        env = both(env, "isIPv4", "is_ipv4", address(s -> IPV4.matcher(s).matches(), "an IPv4"));
        env = both(env, "isIPv6", "is_ipv6", address(s -> IPV6.matcher(s).matches() && parses(s) && !IPV4.matcher(s).matches(), "an IPv6"));
        env = both(env, "isIP", "is_ip", address(s -> IPV4.matcher(s).matches() || IPV6.matcher(s).matches() && parses(s), "an IP"));
        env = both(env, "isInt", "is_int", test(s -> s.matches("[+-]?\\d+")));
        env = both(env, "isFloat", "is_float", test(DataValidation::isFloat));
        env = both(env, "isDuration", "is_duration", test(DataValidation::isDuration));
        CcmFunction regex = arguments -> {
            try {
                return Pattern.compile(String.valueOf(arguments.get(1))).matcher(String.valueOf(arguments.get(0))).find();
            } catch (PatternSyntaxException e) {
                throw new IllegalArgumentException("invalid regex \"" + arguments.get(1) + "\": " + e.getDescription());
            }
        };
        return both(env, "isRegex", "is_regex", regex);
    }

    private static CcmEnv both(CcmEnv env, String camel, String snake, CcmFunction function) {
        return env.withFunction(camel, function).withFunction(snake, function);
    }

    private static CcmFunction test(Predicate<String> predicate) {
        return arguments -> predicate.test(String.valueOf(arguments.getFirst()));
    }

    /** As choria's address checks: an address that is not one is an error, not false. */
    private static CcmFunction address(Predicate<String> predicate, String what) {
        return arguments -> {
            String value = String.valueOf(arguments.getFirst());
            if (!predicate.test(value)) throw new IllegalArgumentException(value + " is not " + what + " address");
            return true;
        };
    }

    /** An IPv6 literal (it has a colon, so it is never looked up in DNS). */
    private static boolean parses(String address) {
        try {
            InetAddress.getByName(address);
            return true;
        } catch (java.net.UnknownHostException | SecurityException e) {
            return false;
        }
    }

    private static boolean isFloat(String s) {
        try {
            new BigDecimal(s.strip().replaceFirst("^\\+", ""));
            return true;
        } catch (NumberFormatException e) {
            return s.matches("[+-]?(?i)(inf|infinity|nan)");
        }
    }

    private static boolean isDuration(String s) {
        try {
            GoDuration.seconds(s);
            return true;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }
}
