package io.muster.coordinator.http;

import java.nio.file.Path;
import java.util.List;

/**
 * How the coordinator serves its API and page.
 *
 * @param listen {@code HOST:PORT} ({@code --listen}; port 0 picks a free one)
 * @param tokenFile the bearer token changing actions need ({@code --api-token-file}); null: changes are disabled
 * @param hosts the names it may be reached by besides IP addresses and localhost ({@code --api-host}: its DNS
 *        names, a reverse proxy's); a request naming another is refused ({@link HostCheck})
 */
public record ApiOptions(String listen, Path tokenFile, List<String> hosts) {
    public ApiOptions {
        hosts = List.copyOf(hosts);
    }

    /** Reached by IP address or localhost only. */
    public ApiOptions(String listen, Path tokenFile) {
        this(listen, tokenFile, List.of());
    }

    public static final String DEFAULT_LISTEN = "127.0.0.1:9240";
}
