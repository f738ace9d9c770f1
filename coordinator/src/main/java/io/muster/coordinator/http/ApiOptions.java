package io.muster.coordinator.http;

import java.nio.file.Path;

/**
 * How the coordinator serves its API and page.
 *
 * @param listen {@code HOST:PORT} ({@code --listen}; port 0 picks a free one)
 * @param tokenFile the bearer token changing actions need ({@code --api-token-file}); null: changes are disabled
 */
public record ApiOptions(String listen, Path tokenFile) {
    public static final String DEFAULT_LISTEN = "127.0.0.1:9240";
}
