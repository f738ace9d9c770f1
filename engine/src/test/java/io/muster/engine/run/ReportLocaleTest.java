package io.muster.engine.run;

import static org.assertj.core.api.Assertions.assertThat;

import io.muster.engine.report.Report;
import io.muster.engine.report.ResourceReport;
import io.muster.engine.report.TextReport;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import java.util.Locale;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The summaries of {@code apply} and {@code run} read the same whatever the user's locale: a script that
 * parses "in 1234ms" must not get Arabic-Indic digits (ar-EG), a decimal comma (de-DE) or Turkish case.
 */
class ReportLocaleTest {
    private Locale before;

    @BeforeEach
    void remember() {
        before = Locale.getDefault();
    }

    @AfterEach
    void restore() {
        Locale.setDefault(before);
    }

    @ParameterizedTest
    @ValueSource(strings = {"ar-EG", "de-DE", "tr-TR"})
    void anApplySummaryReadsTheSame(String locale) {
        Locale.setDefault(Locale.forLanguageTag(locale));
        List<ResourceReport> resources = IntStream.range(0, 1234).mapToObj(i -> ResourceReport.stable("file#/f" + i, null, 1)).toList();
        StringWriter text = new StringWriter();

        new TextReport(new PrintWriter(text), false).summary(new Report("web1", false, 12345, resources));

        assertThat(text.toString()).isEqualTo("""
                apply on web1: 1234 resources in 12345ms
                  changed 0, stable 1234, failed 0, skipped 0, unresolvable 0, refreshed 0
                """);
    }

    @ParameterizedTest
    @ValueSource(strings = {"ar-EG", "de-DE", "tr-TR"})
    void aRunSummaryReadsTheSame(String locale) {
        Locale.setDefault(Locale.forLanguageTag(locale));
        ResourceReport failed = ResourceReport.failed("exec#gone", "exit 1");
        List<ResourceStats> resources = List.of(new ResourceStats("file#/f", "file", List.of(), ResourceReport.stable("file#/f", null, 1), 1500, 12, 0));
        StringWriter text = new StringWriter();

        new LiveReport("web1", false, true, 86_400_000, resources, List.of(failed)).text(new PrintWriter(text));

        assertThat(text.toString()).isEqualTo("""
                run on web1: 1 resources for 86400000ms, converged
                  checks 1500, changes 12, failures 0; now: changed 0, stable 1, failed 0, skipped 0, pending 0
                  reversed 1, of which failed 1
                """);
    }
}
