package io.muster.cli;

import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.IThrowableProxy;
import ch.qos.logback.classic.spi.ThrowableProxyUtil;
import ch.qos.logback.core.CoreConstants;
import ch.qos.logback.core.encoder.EncoderBase;
import java.nio.charset.Charset;
import java.util.Map;

/**
 * A log line as muster writes it: {@code LEVEL resource [child manifest]: message}, the level padded to five
 * (what {@code %-5level %X{resource:-muster}%replace( [%X{manifest}]){' \[\]', ''}: %msg%n} says), then the stack
 * trace of an exception logged with one. Not logback's PatternLayoutEncoder: its pattern parser and table of
 * converters cost a one-shot run about 15 ms of start-up, every run.
 */
final class LogLines extends EncoderBase<ILoggingEvent> {

    @Override
    public byte[] encode(ILoggingEvent event) {
        StringBuilder line = new StringBuilder(128);
        String level = event.getLevel().toString();
        line.append(level).repeat(' ', Math.max(0, 5 - level.length())).append(' ');
        Map<String, String> mdc = event.getMDCPropertyMap();
        String resource = mdc.get("resource");
        line.append(resource == null || resource.isEmpty() ? "muster" : resource);
        String manifest = mdc.get("manifest");
        if (manifest != null && !manifest.isEmpty()) line.append(" [").append(manifest).append(']');
        line.append(": ").append(event.getFormattedMessage()).append(CoreConstants.LINE_SEPARATOR);
        IThrowableProxy thrown = event.getThrowableProxy();
        if (thrown != null) line.append(ThrowableProxyUtil.asString(thrown));
        return line.toString().getBytes(Charset.defaultCharset());
    }

    @Override
    public byte[] headerBytes() {
        return null;
    }

    @Override
    public byte[] footerBytes() {
        return null;
    }
}
