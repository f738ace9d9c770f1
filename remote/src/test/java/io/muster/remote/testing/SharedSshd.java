package io.muster.remote.testing;

import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * {@code @ExtendWith(SharedSshd.class)}: one {@link Sshd} for the whole test JVM, given to every test method that
 * takes an {@code Sshd} parameter, and stopped when the run ends. Tests must leave it running; a test that kills
 * its host, or needs several, launches its own.
 */
public final class SharedSshd implements ParameterResolver {
    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return parameter.getParameter().getType() == Sshd.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        return context.getRoot().getStore(ExtensionContext.Namespace.GLOBAL)
                .getOrComputeIfAbsent(Running.class, key -> Running.launch(), Running.class).sshd();
    }

    /** The shared server as JUnit closes it at the end of the run. */
    private record Running(Sshd sshd) implements ExtensionContext.Store.CloseableResource {
        static Running launch() {
            try {
                return new Running(Sshd.launch());
            } catch (Exception e) {
                throw new IllegalStateException("cannot start sshd: " + e.getMessage(), e);
            }
        }

        @Override
        public void close() throws Exception {
            sshd.close();
        }
    }
}
