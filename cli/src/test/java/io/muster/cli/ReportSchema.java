package io.muster.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.networknt.schema.Error;
import com.networknt.schema.InputFormat;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** The published JSON Schema of muster's JSON output (docs/schema/report-1.json), as a consumer would check a report. */
final class ReportSchema {
    /** Where the README says the schema is; tests run in the module's directory. */
    static final Path FILE = Path.of("..", "docs", "schema", "report-1.json");

    private static final Schema SCHEMA = load();

    private ReportSchema() {}

    private static Schema load() {
        try {
            return SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12).getSchema(Files.readString(FILE), InputFormat.JSON);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Asserts that {@code json}, one document muster printed, is valid under the schema. */
    static void assertValid(String json) {
        List<Error> errors = SCHEMA.validate(json, InputFormat.JSON);
        assertThat(errors).as("%s against %s:%n%s", FILE, json, errors).isEmpty();
    }
}
