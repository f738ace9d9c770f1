package io.muster.engine.resource.scaffold;

import java.nio.file.FileSystems;
import java.nio.file.Path;
import java.util.List;

/**
 * A command run on a file the scaffold wrote whose name matches {@code glob}; {@code {}} in it is the file's path,
 * else the path is its last argument. It runs through {@code /bin/sh -c}, the path quoted.
 */
record PostCommand(String glob, String command) {

    boolean matches(Path file) {
        return FileSystems.getDefault().getPathMatcher("glob:" + glob).matches(file.getFileName());
    }

    List<String> argv(Path file) {
        String quoted = "'" + file.toString().replace("'", "'\\''") + "'";
        String line = command.contains("{}") ? command.replace("{}", quoted) : command + " " + quoted;
        return List.of("/bin/sh", "-c", line);
    }
}
