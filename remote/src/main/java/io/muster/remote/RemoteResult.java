package io.muster.remote;

import java.util.List;

/**
 * How one host of {@code muster remote} ended.
 *
 * @param name the host's name in the fleet
 * @param changed the changes its agent made (applies run)
 * @param failed resources that failed
 * @param seconds from connecting to the end of its agent
 * @param cache how muster got there: {@code uploaded}, {@code reused} (already in the host's cache), or null when the
 *        host was not reached
 * @param error why it failed or was not reached, one line; null when it converged
 */
public record RemoteResult(String name, Result result, long changed, long failed, double seconds, String cache, String error) {
    public enum Result {
        /** Its graph converged with no failed resource. */
        CONVERGED,
        /** Its agent ran, but its graph failed, did not compile, or did not converge in time. */
        FAILED,
        /** SSH failed, or its agent never reported to the fleet. */
        UNREACHABLE;

        /** As shown in the table and the JSON. */
        public String word() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    /** Whether every host converged: the run succeeded. */
    public static boolean allConverged(List<RemoteResult> results) {
        return results.stream().allMatch(r -> r.result() == Result.CONVERGED);
    }
}
