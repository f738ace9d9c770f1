package io.muster.cli;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The {@link MusterProcess}es a test starts, each writing {@code musterN.out} and {@code .err} in the test's
 * directory, killed after the test with whatever they left running. Registered with
 * {@code @RegisterExtension}.
 */
final class MusterProcesses implements AfterEachCallback {
    private final List<MusterProcess> started = new ArrayList<>();

    /** Starts {@code muster COMMAND MANIFEST --prefix DIR/.prefix OPTIONS…} in {@code dir}. */
    MusterProcess start(Path dir, String command, Path manifest, Object... options) throws IOException {
        List<Object> args = new ArrayList<>(List.of(command, manifest, "--prefix", dir.resolve(".prefix")));
        args.addAll(List.of(options));
        MusterProcess muster = MusterProcess.start(dir, "muster" + started.size(), args.toArray());
        started.add(muster);
        return muster;
    }

    @Override
    public void afterEach(ExtensionContext context) throws InterruptedException, IOException {
        for (MusterProcess m : started) m.close();
        started.clear();
    }
}
