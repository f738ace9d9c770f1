package io.muster.engine.format.ccm.expr;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class CcmExpressionTest {
    private static final Map<String, Object> DATA = data();
    private static final CcmEnv ENV = CcmEnv.of(DATA, Map.of("os", "debian", "cpus", 4, "disks", List.of(Map.of("name", "sda", "size", 100),
                    Map.of("name", "sdb", "size", 250))), Map.of("HOME", "/home/ops"))
            .withClock(Clock.fixed(Instant.parse("2026-03-04T05:06:07.5Z"), ZoneOffset.UTC));

    private static Map<String, Object> data() {
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("service", "web");
        data.put("port", 8080);
        data.put("ratio", 0.25);
        data.put("enabled", true);
        data.put("users", List.of("ann", "bob", "cy"));
        data.put("limits", Map.of("files", 1024, "procs", 64));
        data.put("nothing", null);
        return data;
    }

    static Object eval(String source) {
        try {
            return CcmExpression.parse(source).evaluate(ENV);
        } catch (CcmSyntaxException e) {
            throw new AssertionError(e.getMessage(), e);
        }
    }

    @ParameterizedTest(name = "{0} = {1}")
    @CsvSource(delimiterString = " => ", quoteCharacter = '"', textBlock = """
            1 + 2 => 3
            7 - 10 => -3
            6 * 7 => 42
            7 / 2 => 3.5
            6 / 3 => 2.0
            7 % 3 => 1
            2 ** 10 => 1024.0
            2 ^ 3 ^ 2 => 512.0
            -2 ** 2 => -4.0
            1 + 2 * 3 => 7
            (1 + 2) * 3 => 9
            1.5 + 1 => 2.5
            1_000 + 0x10 + 0o10 + 0b11 => 1027
            1e3 => 1000.0
            Data.port + 1 => 8081
            Data.ratio * 4 => 1.0
            'a' + 'b' + `c` => abc
            """)
    void arithmetic(String source, String expected) {
        assertThat(String.valueOf(eval(source))).isEqualTo(expected);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiterString = " => ", quoteCharacter = '"', textBlock = """
            1 == 1.0 => true
            'a' != 'b' => true
            2 < 3 && 3 <= 3 => true
            'abc' > 'abd' => false
            true and not false => true
            false or !true => false
            1 > 2 || 2 > 1 => true
            'b' in ['a', 'b'] => true
            'files' in Data.limits => true
            'x' not in Data.limits => true
            'web server' contains 'eb s' => true
            Data.service startsWith 'we' => true
            Data.service endsWith 'b' => true
            'host42' matches '^host[0-9]+$' => true
            'host42' not matches '^db' => true
            Data.enabled ? 'on' : 'off' => on
            Data.port > 9000 ? 'high' : 'low' => low
            Data.missing ?? 'fallback' => fallback
            Data.missing?.deeper ?? 'safe' => safe
            1 < Data.port < 9000 => true
            1 < 2 > 3 => false
            Data.nothing?.field => null
            Data.service ?? 'unused' => web
            if Data.enabled { 'yes' } else { 'no' } => yes
            let x = 2; x * Data.port => 16160
            """)
    void comparisonLogicAndConditionals(String source, String expected) {
        assertThat(String.valueOf(eval(source))).isEqualTo(expected);
    }

    @Test
    void stringLiteralsTakeGoEscapes() {
        assertThat(eval("\"tab\\there\" + 'it\\'s' + `raw\\n`")).isEqualTo("tab\there" + "it's" + "raw\\n");
        assertThat(eval("'\\u00e9\\x41\\101'")).isEqualTo("éAA");
    }

    @Test
    void commentsAndTheEnvironmentAsAMap() {
        assertThat(eval("Data.port /* the port */ + 1 // and one more")).isEqualTo(8081L);
        assertThat(eval("'Facts' in $env && $env['Data'].service == 'web'")).isEqualTo(true);
    }

    @Test
    void memberAccessIndexingAndSlicing() {
        assertThat(eval("Data.users[0]")).isEqualTo("ann");
        assertThat(eval("Data.users[-1]")).isEqualTo("cy");
        assertThat(eval("Data['service']")).isEqualTo("web");
        assertThat(eval("Data.limits.files")).isEqualTo(1024);
        assertThat(eval("Data.users[1:]")).isEqualTo(List.of("bob", "cy"));
        assertThat(eval("Data.users[:2]")).isEqualTo(List.of("ann", "bob"));
        assertThat(eval("Data.service[1:3]")).isEqualTo("eb");
        assertThat(eval("'héllo'[1]")).isEqualTo("é");
        assertThat(eval("Facts.disks[1].name")).isEqualTo("sdb");
        assertThat(eval("Environ.HOME")).isEqualTo("/home/ops");
        assertThat(eval("Data.missing")).isNull();
        assertThat(eval("1..3")).isEqualTo(List.of(1L, 2L, 3L));
        assertThat(eval("[1, 'a', nil]")).isEqualTo(Arrays.asList(1L, "a", null));
        assertThat(eval("{a: 1, 'b c': 2, 1.50: 3}")).isEqualTo(Map.of("a", 1L, "b c", 2L, "1.50", 3L));
    }

    @Test
    void pipesPassTheLeftSideAsTheFirstArgument() {
        assertThat(eval("Data.service | upper()")).isEqualTo("WEB");
        assertThat(eval("'  Web ' | trim() | lower()")).isEqualTo("web");
        assertThat(eval("'42' | int()")).isEqualTo(42L);
        assertThat(eval("'1.5' | float()")).isEqualTo(1.5);
        assertThat(eval("Data.users | join(',')")).isEqualTo("ann,bob,cy");
        assertThat(eval("'a,b' | split(',') | len()")).isEqualTo(2L);
        assertThat(eval("Data.port + 1 | string()")).isEqualTo("8081");
        assertThat(eval("Data.users | filter(# != 'bob') | map(upper(#))")).isEqualTo(List.of("ANN", "CY"));
    }

    @Test
    void stringBuiltinsFollowGo() {
        assertThat(eval("trim('xxhixx', 'x')")).isEqualTo("hi");
        assertThat(eval("trimPrefix('v1.2', 'v')")).isEqualTo("1.2");
        assertThat(eval("trimSuffix('app.conf', '.conf')")).isEqualTo("app");
        assertThat(eval("split('a:b:c', ':', 2)")).isEqualTo(List.of("a", "b:c"));
        assertThat(eval("splitAfter('a:b', ':')")).isEqualTo(List.of("a:", "b"));
        assertThat(eval("replace('a-b-c', '-', '_')")).isEqualTo("a_b_c");
        assertThat(eval("replace('a-b-c', '-', '_', 1)")).isEqualTo("a_b-c");
        assertThat(eval("repeat('ab', 3)")).isEqualTo("ababab");
        assertThat(eval("indexOf('hello', 'l')")).isEqualTo(2L);
        assertThat(eval("lastIndexOf('hello', 'l')")).isEqualTo(3L);
        assertThat(eval("hasPrefix('hello', 'he') && hasSuffix('hello', 'lo')")).isEqualTo(true);
        assertThat(eval("len('héllo')")).isEqualTo(5L);
        assertThat(eval("string(nil)")).isEqualTo("<nil>");
        assertThat(eval("string([1, 'a', {k: true}])")).isEqualTo("[1 a map[k:true]]");
        assertThat(eval("string(1000000.0)")).isEqualTo("1e+06");
        assertThat(eval("string(0.1 + 0.2)")).isEqualTo("0.30000000000000004");
    }

    @Test
    void numberAndCollectionBuiltins() {
        assertThat(eval("abs(-3)")).isEqualTo(3L);
        assertThat(eval("ceil(1.2)")).isEqualTo(2.0);
        assertThat(eval("floor(1.8)")).isEqualTo(1.0);
        assertThat(eval("round(2.5)")).isEqualTo(3.0);
        assertThat(eval("round(-2.5)")).isEqualTo(-3.0);
        assertThat(eval("[bitand(12, 10), bitor(12, 10), bitxor(12, 10), bitnand(12, 10), bitnot(10), bitshl(1, 4), bitshr(-16, 2), bitushr(-1, 60)]"))
                .isEqualTo(List.of(8L, 14L, 6L, 4L, -11L, 16L, -4L, 15L));
        assertThat(eval("int(3.9)")).isEqualTo(3L);
        assertThat(eval("max(3, 9, 4)")).isEqualTo(9L);
        assertThat(eval("min([3, 1.5])")).isEqualTo(1.5);
        assertThat(eval("sum([1, 2, 3])")).isEqualTo(6L);
        assertThat(eval("mean([1, 2])")).isEqualTo(1.5);
        assertThat(eval("median([3, 1, 2])")).isEqualTo(2.0);
        assertThat(eval("keys(Data.limits)")).isEqualTo(List.of("files", "procs"));
        assertThat(eval("values({b: 2, a: 1})")).isEqualTo(List.of(1L, 2L));
        assertThat(eval("first(Data.users) + last(Data.users)")).isEqualTo("anncy");
        assertThat(eval("get(Data.users, 9)")).isNull();
        assertThat(eval("take([1, 2, 3], 2)")).isEqualTo(List.of(1L, 2L));
        assertThat(eval("sort([3, 1, 2])")).isEqualTo(List.of(1L, 2L, 3L));
        assertThat(eval("sort(['a', 'c', 'b'], 'desc')")).isEqualTo(List.of("c", "b", "a"));
        assertThat(eval("reverse([1, 2])")).isEqualTo(List.of(2L, 1L));
        assertThat(eval("uniq([1, 1, 2, 1])")).isEqualTo(List.of(1L, 2L));
        assertThat(eval("concat([1], [2, 3])")).isEqualTo(List.of(1L, 2L, 3L));
        assertThat(eval("flatten([1, [2, [3]]])")).isEqualTo(List.of(1L, 2L, 3L));
        assertThat(eval("toPairs({a: 1})")).isEqualTo(List.of(List.of("a", 1L)));
        assertThat(eval("fromPairs([['a', 1]])")).isEqualTo(Map.of("a", 1L));
        assertThat(eval("type(1) + type(1.0) + type('') + type(nil) + type([]) + type({})")).isEqualTo("intfloatstringnilarraymap");
    }

    @Test
    void predicatesSeeTheElementItsIndexAndItsFields() {
        assertThat(eval("filter(Facts.disks, .size > 150) | map(.name)")).isEqualTo(List.of("sdb"));
        assertThat(eval("map(Data.users, #index)")).isEqualTo(List.of(0L, 1L, 2L));
        assertThat(eval("all(Data.users, len(#) <= 3)")).isEqualTo(true);
        assertThat(eval("any(Data.users, # == 'bob')")).isEqualTo(true);
        assertThat(eval("none(Data.users, # == 'dan')")).isEqualTo(true);
        assertThat(eval("one(Data.users, # startsWith 'a')")).isEqualTo(true);
        assertThat(eval("count(Data.users, len(#) == 3)")).isEqualTo(2L);
        assertThat(eval("sum(Facts.disks, .size)")).isEqualTo(350L);
        assertThat(eval("find(Data.users, # > 'b')")).isEqualTo("bob");
        assertThat(eval("findIndex(Data.users, # == 'cy')")).isEqualTo(2L);
        assertThat(eval("findLast(Data.users, len(#) == 3)")).isEqualTo("bob");
        assertThat(eval("findLastIndex(Data.users, # == 'x')")).isEqualTo(-1L);
        assertThat(eval("groupBy([1, 2, 3], # % 2 == 0)")).isEqualTo(Map.of("false", List.of(1L, 3L), "true", List.of(2L)));
        assertThat(eval("sortBy(Facts.disks, .size, 'desc') | map(.name)")).isEqualTo(List.of("sdb", "sda"));
        assertThat(eval("sortBy(Facts.disks, 'size', 'desc')[0].name")).isEqualTo("sdb");
        assertThat(eval("reduce([1, 2, 3], #acc + #, 10)")).isEqualTo(16L);
        assertThat(eval("reduce([1, 2, 3], #acc * #)")).isEqualTo(6L);
    }

    @Test
    void jsonBase64AndTime() {
        assertThat(eval("toJSON({b: [1, 2.5], a: '<x>'})")).isEqualTo("{\n  \"a\": \"\\u003cx\\u003e\",\n  \"b\": [\n    1,\n    2.5\n  ]\n}");
        assertThat(eval("fromJSON('{\"a\": [1, true]}')")).isEqualTo(Map.of("a", List.of(1L, true)));
        assertThat(eval("toBase64('hi') + ' ' + fromBase64('aGk=')")).isEqualTo("aGk= hi");
        assertThat(eval("string(now())")).isEqualTo("2026-03-04 05:06:07.5 +0000 UTC");
        assertThat(eval("now().Format('2006-01-02T15:04:05Z07:00 Mon Jan _2')")).isEqualTo("2026-03-04T05:06:07Z Wed Mar  4");
        assertThat(eval("now().Year()")).isEqualTo(2026L);
        assertThat(eval("string(duration('1h30m'))")).isEqualTo("1h30m0s");
        assertThat(eval("string(duration('1.5s') + duration('250ms'))")).isEqualTo("1.75s");
        assertThat(eval("(now() + duration('24h')).Day()")).isEqualTo(5L);
        assertThat(eval("date('2026-01-02').Format('Mon 2 Jan 2006 15:04 MST')")).isEqualTo("Fri 2 Jan 2026 00:00 UTC");
        assertThat(eval("date('2026-01-02T03:04:05+02:00').Unix()")).isEqualTo(1767315845L);
        assertThat(eval("date('02/01/26 3:04PM', '02/01/06 3:04PM', 'UTC').Hour()")).isEqualTo(15L);
        assertThat(eval("date('2026-03-04') < now()")).isEqualTo(true);
        assertThat(eval("date('13:14:15').Minute()")).isEqualTo(14L);
        assertThat(eval("type(now()) + ' ' + type(duration('1s'))")).isEqualTo("time.Time time.Duration");
    }

    @Test
    void lookupFollowsGjsonPathsIntoDataFactsAndEnviron() {
        assertThat(eval("lookup('data.service')")).isEqualTo("web");
        assertThat(eval("lookup('data.users.1')")).isEqualTo("bob");
        assertThat(eval("lookup('data.users.#')")).isEqualTo(3L);
        assertThat(eval("lookup('facts.disks.#.name')")).isEqualTo(List.of("sda", "sdb"));
        assertThat(eval("lookup('facts.o?')")).isEqualTo("debian");
        assertThat(eval("lookup('environ.HOME')")).isEqualTo("/home/ops");
        assertThat(eval("lookup('data.port')")).isEqualTo(8080L);
        assertThat(eval("lookup('data.absent', 'dflt')")).isEqualTo("dflt");
        assertThatThrownBy(() -> eval("lookup('data.absent')")).isInstanceOf(CcmEvaluationException.class)
                .hasMessage("column 1: lookup(): missing key 'data.absent' in environment");
        assertThat(evalRestricted("lookup('facts.absent')")).isEqualTo("");
    }

    private static Object evalRestricted(String source) {
        try {
            return CcmExpression.parse(source).evaluate(ENV.restricted());
        } catch (CcmSyntaxException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void restrictedEnvironmentsCallLookupOnly() {
        assertThatThrownBy(() -> evalRestricted("file('/etc/hostname')"))
                .hasMessage("column 1: file() is not available here: hierarchy data may call lookup() only");
    }

    @Test
    void callerAddedVariablesAndFunctions() throws CcmSyntaxException {
        CcmEnv env = ENV.withVariable("value", "10.0.0.1").withFunction("isIPv4", args -> String.valueOf(args.get(0)).matches("[0-9.]+"));
        assertThat(CcmExpression.parse("isIPv4(value) || value == ''").evaluate(env)).isEqualTo(true);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiterString = " => ", quoteCharacter = '"', textBlock = """
            invalid syntax => column 9: unexpected 'syntax'
            1 + => column 4: unexpected end of the expression
            (1 => column 3: expected ')', found the end of the expression
            'open => column 1: unterminated string (no closing ')
            1 @ 2 => column 3: unexpected character '@'
            a ?? b + 1 => column 8: operator '+' and '??' cannot be mixed; wrap either in parentheses
            kvGet('b', 'k') => column 1: kvGet(): kvGet() reads a NATS key-value store, which muster does not use
            Data.x | 5 => column 10: expected a function call after '|', found '5'
            '\\q' => column 2: unknown escape '\\q' in string
            99999999999999999999 => column 1: integer '99999999999999999999' is out of range
            """)
    void syntaxErrorsNameTheConstructAndTheColumn(String source, String message) {
        assertThatThrownBy(() -> CcmExpression.parse(source)).isInstanceOf(CcmSyntaxException.class).hasMessage(message);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiterString = " => ", quoteCharacter = '"', textBlock = """
            Data.service + 1 => column 14: invalid operation: string + int (string 'web' + int 1)
            Data.missing.deeper => column 13: cannot fetch deeper from nil
            Data.missing.deeper ?? 'x' => column 13: cannot fetch deeper from nil
            Data.users[5] => column 11: index out of range: 5 (array length is 3)
            Nope.x => column 1: unknown name 'Nope'; expected Data, Facts, Environ, or a function call
            nope(1) => column 1: unknown function 'nope'
            7 % 0 => column 3: integer divide by zero
            1 and true => column 3: 'and' needs a bool, got int 1
            int('x1') => column 1: int(): invalid syntax for an int: 'x1'
            upper(1) => column 1: upper(): argument 1 must be a string, got int 1
            join([1, 2]) => column 1: join(): the array must hold strings, got int 1
            lower() => column 1: lower(): takes 1 argument, got 0
            now().Nanos() => column 7: unknown method Nanos() of a time; muster knows Format, Unix, UnixMilli, Year, Month, Day, Hour, Minute, Second, YearDay, Weekday, UTC, Add, Sub, Before, After, Equal, String
            """)
    void evaluationErrorsNameTheConstructAndTheColumn(String source, String message) {
        assertThatThrownBy(() -> eval(source)).isInstanceOf(CcmEvaluationException.class).hasMessage(message);
    }
}
