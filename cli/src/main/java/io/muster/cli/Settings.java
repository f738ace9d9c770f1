package io.muster.cli;

import io.muster.engine.util.Suggest;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Where a flag not on the command line takes its value from: a {@code MUSTER_*} environment variable, then
 * {@code /etc/muster/muster.conf} ({@code $MUSTER_CONFIG} names another file), then the flag's own default. Only
 * the flags of {@link Setting#ALL} are read so. A bad key or value is kept as a problem, for the command to
 * report before it runs (picocli ignores what a default provider throws), and the flag keeps its own default.
 * Picocli asks through {@link SettingDefaults}; {@link PlainApply} asks directly.
 */
final class Settings {
    static final Path DEFAULT_FILE = Path.of("/etc/muster/muster.conf");

    private final Map<String, String> environment;
    private final Map<String, String> fromFile = new HashMap<>();
    private final List<String> problems = new ArrayList<>();

    private Settings(Map<String, String> environment) {
        this.environment = environment;
    }

    /** The settings of {@code environment} and of the file it names (or the default file), read now. */
    static Settings read(Map<String, String> environment) {
        Settings settings = new Settings(environment);
        String named = environment.get("MUSTER_CONFIG");
        settings.readFile(named == null || named.isEmpty() ? DEFAULT_FILE : Path.of(named), named != null && !named.isEmpty());
        for (Setting s : Setting.ALL) {
            String value = environment.get(s.variable());
            if (value != null && !value.isEmpty() && !s.valid().test(value)) {
                settings.problems.add(s.variable() + "=" + value + ": expected " + s.expected());
            }
        }
        return settings;
    }

    /** {@code key = value} lines; {@code #} starts a comment line. Missing is fine unless $MUSTER_CONFIG named it. */
    private void readFile(Path file, boolean named) {
        List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            if (named) problems.add(file + ": no such file (named by MUSTER_CONFIG)");
            return;
        } catch (IOException e) {
            problems.add(file + ": cannot read: " + e.getMessage());
            return;
        }
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i).strip();
            if (line.isEmpty() || line.startsWith("#")) continue;
            String where = file + ":" + (i + 1) + ": ";
            int equals = line.indexOf('=');
            if (equals < 0) {
                problems.add(where + "expected KEY = VALUE, got '" + line + "'");
                continue;
            }
            String key = line.substring(0, equals).strip();
            String value = line.substring(equals + 1).strip();
            Setting setting = Setting.BY_KEY.get(key);
            if (setting == null) {
                problems.add(where + "unknown key '" + key + "'" + Suggest.hint(key, Setting.BY_KEY.keySet()) + "; expected one of "
                        + String.join(", ", Setting.ALL.stream().map(Setting::key).toList()));
            } else if (!setting.valid().test(value)) {
                problems.add(where + key + ": expected " + setting.expected() + ", got '" + value + "'");
            } else {
                fromFile.put(key, value);
            }
        }
    }

    /** What is wrong in the file or the variables, one line each, naming where. */
    List<String> problems() {
        return List.copyOf(problems);
    }

    /** The value of {@code setting} (a flag's default), or null when neither the environment nor the file sets it. */
    String value(Setting setting) {
        String value = environment.get(setting.variable());
        if (value != null && !value.isEmpty()) return setting.valid().test(value) ? value : null;
        return fromFile.get(setting.key());
    }
}
