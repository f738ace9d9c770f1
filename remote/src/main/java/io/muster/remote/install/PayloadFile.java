package io.muster.remote.install;

import java.nio.file.Path;

/**
 * One file of the payload as the remote cache lays it out.
 *
 * @param name its path inside the cache directory: {@code muster.jar} or {@code runtime/...}
 * @param sha256 its content's digest, in hex
 */
record PayloadFile(Path local, String name, String sha256, boolean executable, long size) {
    /** Its line in a sha256sum listing. */
    String listingLine() {
        return sha256 + "  " + name + "\n";
    }
}
