package io.muster.remote.ssh;

import com.jcraft.jsch.ConfigRepository;
import com.jcraft.jsch.OpenSSHConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The OpenSSH client config (~/.ssh/config) as far as muster honours it: HostName, User, Port and IdentityFile of
 * the first matching Host blocks. What the destination names itself (USER@, :PORT) wins over the file.
 */
final class SshConfigFile {
    private static final int SSH_PORT = 22;

    private SshConfigFile() {}

    /** Applies {@code file} (may be null or missing: then only the defaults apply) to {@code destination}. */
    static Login resolve(Path file, Destination destination, LocalUser me) throws SshException {
        ConfigRepository.Config config = read(file).getConfig(destination.host());
        String host = config.getHostname() != null ? expand(config.getHostname(), Map.of('h', destination.host())) : destination.host();
        String user = destination.user() != null ? destination.user() : config.getUser() != null ? config.getUser() : me.name();
        int port = destination.port() != 0 ? destination.port() : config.getPort() > 0 ? config.getPort() : SSH_PORT;
        List<Path> identities = new ArrayList<>();
        for (String value : config.getValues("IdentityFile")) {
            String key = unquote(value);
            if (key.equals("~") || key.startsWith("~/")) key = me.home() + key.substring(1);
            identities.add(Path.of(expand(key, Map.of('d', me.home().toString(), 'u', me.name(), 'r', user, 'h', host))));
        }
        return new Login(user, host, port, identities);
    }

    private static ConfigRepository read(Path file) throws SshException {
        try {
            return file == null || !Files.exists(file) ? OpenSSHConfig.parse("") : OpenSSHConfig.parseFile(file.toString());
        } catch (IOException e) {
            throw new SshException(file + ": cannot read the SSH client config: " + e.getMessage(), false, e);
        }
    }

    private static String unquote(String value) {
        return value.length() > 1 && value.startsWith("\"") && value.endsWith("\"") ? value.substring(1, value.length() - 1) : value;
    }

    /**
     * Expands OpenSSH's %-tokens in a value: those given (HostName knows %h; IdentityFile %d, %u, %r and %h) and %%.
     * An unknown token stays as written.
     */
    private static String expand(String value, Map<Character, String> tokens) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c != '%' || i + 1 == value.length()) {
                out.append(c);
                continue;
            }
            char token = value.charAt(++i);
            if (token == '%') out.append('%');
            else if (tokens.containsKey(token)) out.append(tokens.get(token));
            else out.append('%').append(token);
        }
        return out.toString();
    }
}
