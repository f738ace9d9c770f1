package io.muster.cli;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.Configurator;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.ConsoleAppender;
import ch.qos.logback.core.spi.ContextAwareBase;
import org.slf4j.LoggerFactory;

/**
 * Logging in code rather than logback.xml (parsing XML costs start-up time on every run): concise lines
 * on stderr, {@code LEVEL resource [child manifest]: message}; netty and gRPC only at WARN, jetcd's retries not at all.
 */
public final class LogSetup extends ContextAwareBase implements Configurator {
    /**
     * gRPC logs through java.util.logging (an INFO line about epoll at every start); held here because JUL
     * keeps loggers weakly, and a collected logger would forget its level.
     */
    private static final java.util.logging.Logger GRPC_JUL = java.util.logging.Logger.getLogger("io.grpc");

    @Override
    public ExecutionStatus configure(LoggerContext context) {
        LogLines encoder = new LogLines(); // a child manifest's resource names its manifest: "WARN  msg#hi [lib/web.yaml]: ..."
        encoder.setContext(context);
        encoder.start();
        ConsoleAppender<ILoggingEvent> console = new ConsoleAppender<>();
        console.setContext(context);
        console.setName("stderr");
        console.setTarget("System.err");
        console.setEncoder(encoder);
        console.start();
        Logger root = context.getLogger(Logger.ROOT_LOGGER_NAME);
        root.setLevel(Level.INFO);
        root.addAppender(console);
        context.getLogger("io.netty").setLevel(Level.WARN);
        context.getLogger("io.grpc").setLevel(Level.WARN);
        // jetcd warns of each retry of an unreachable etcd; the command says so itself, in one line
        context.getLogger("io.etcd").setLevel(Level.ERROR);
        context.getLogger("io.vertx").setLevel(Level.WARN);
        GRPC_JUL.setLevel(java.util.logging.Level.WARNING);
        return ExecutionStatus.DO_NOT_INVOKE_NEXT_IF_ANY;
    }

    static void debug() {
        ((Logger) LoggerFactory.getLogger(Logger.ROOT_LOGGER_NAME)).setLevel(Level.DEBUG);
    }

    /** For muster remote: the coordinator it runs for its hosts says only what went wrong; the hosts' lines tell the story. */
    static void quietCoordinator() {
        ((Logger) LoggerFactory.getLogger("io.muster.coordinator")).setLevel(Level.WARN);
    }

    /** Puts a setting back as it was. */
    interface Restore extends AutoCloseable {
        @Override
        void close();
    }

    /**
     * For the run of a CCM manifest: the lines on stdout, where {@code ccm apply} writes what its resources say (an
     * exec's {@code logoutput}); back on stderr when the returned handle closes.
     */
    static Restore onStdout() {
        Logger root = (Logger) LoggerFactory.getLogger(Logger.ROOT_LOGGER_NAME);
        if (!(root.getAppender("stderr") instanceof ConsoleAppender<ILoggingEvent> console)) return () -> { };
        retarget(console, "System.out");
        return () -> retarget(console, "System.err");
    }

    private static void retarget(ConsoleAppender<ILoggingEvent> console, String target) {
        console.stop();
        console.setTarget(target);
        console.start();
    }

    /** For --quiet: warnings and errors only. */
    static void quiet() {
        ((Logger) LoggerFactory.getLogger(Logger.ROOT_LOGGER_NAME)).setLevel(Level.WARN);
    }
}
