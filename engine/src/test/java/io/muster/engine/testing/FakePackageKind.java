package io.muster.engine.testing;

import io.muster.engine.resource.Change;
import io.muster.engine.resource.Context;
import io.muster.engine.resource.Groupable;
import io.muster.engine.resource.InvalidResourceException;
import io.muster.engine.resource.TypedParams;
import io.muster.engine.resource.Property;
import io.muster.engine.resource.Resource;
import io.muster.engine.resource.ResourceKind;
import io.muster.engine.resource.Result;
import io.muster.engine.resource.Reversible;
import io.muster.engine.resource.Schema;
import io.muster.engine.resource.Type;
import io.muster.engine.resource.Watcher;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * {@code pkg}: a package manager in a directory, for testing autogroup. {@code db} holds a file per
 * installed package; every install or removal is one transaction, a line in {@code db/transactions} naming
 * the packages it touched, so a test sees which resources were converged together. Not registered with
 * ServiceLoader: tests add it with {@link io.muster.engine.resource.Kinds#with}.
 */
public final class FakePackageKind implements ResourceKind {
    public static final String TRANSACTIONS = "transactions";

    private static final Schema SCHEMA = Schema.of(null, Set.of(), Property.required("db", Type.STRING),
            Property.oneOf("ensure", "installed", "absent"));

    @Override
    public String name() {
        return "pkg";
    }

    @Override
    public Schema schema() {
        return SCHEMA;
    }

    @Override
    public Resource create(TypedParams params) throws InvalidResourceException {
        return new Package(params.name(), params.absolutePath("db"), params.string("ensure", "installed").equals("installed"));
    }

    /** The transactions so far, each the sorted names it touched. */
    public static List<String> transactions(Path db) throws IOException {
        Path log = db.resolve(TRANSACTIONS);
        return Files.exists(log) ? Files.readAllLines(log) : List.of();
    }

    record Package(String name, Path db, boolean installed) implements Groupable, Reversible {
        Path marker() {
            return db.resolve(name);
        }

        @Override
        public boolean groupsWith(Groupable other) {
            return other instanceof Package p && p.db.equals(db);
        }

        @Override
        public Resource group(List<Groupable> others) {
            List<Package> all = new ArrayList<>(List.of(this));
            for (Groupable g : others) all.add((Package) g);
            return new Transaction(all);
        }

        @Override
        public Result checkApply(Context context, boolean apply) throws IOException {
            return new Transaction(List.of(this)).checkApply(context, apply);
        }

        @Override
        public void watch(Watcher watcher) throws Exception {
            new Transaction(List.of(this)).watch(watcher);
        }

        @Override
        public void remember(Context context) throws IOException {
            Path was = context.statePath().resolve("was-installed");
            if (Files.exists(context.statePath())) return;
            Files.createDirectories(context.statePath());
            Files.writeString(was, Boolean.toString(Files.exists(marker())));
        }

        @Override
        public Result reverse(Context context) throws IOException {
            Path was = context.statePath().resolve("was-installed");
            if (!Files.exists(was)) return Result.STABLE;
            boolean before = Boolean.parseBoolean(Files.readString(was));
            Result result = new Transaction(List.of(new Package(name, db, before))).checkApply(context, true);
            Files.delete(was);
            return result;
        }
    }

    /** Packages converged in one transaction. */
    record Transaction(List<Package> packages) implements Resource {
        @Override
        public Result checkApply(Context context, boolean apply) throws IOException {
            List<Package> wrong = packages.stream().filter(p -> Files.exists(p.marker()) != p.installed()).toList();
            if (wrong.isEmpty()) return Result.STABLE;
            List<Change> changes = new ArrayList<>();
            for (Package p : wrong) changes.add(Change.of(p.name(), p.installed() ? "absent" : "installed", p.installed() ? "installed" : "absent"));
            if (apply) {
                for (Package p : wrong) {
                    if (p.installed()) Files.writeString(p.marker(), "");
                    else Files.delete(p.marker());
                }
                String line = String.join(" ", wrong.stream().map(Package::name).sorted().toList()) + "\n";
                Files.writeString(wrong.get(0).db().resolve(TRANSACTIONS), line, StandardCharsets.UTF_8,
                        StandardOpenOption.CREATE, StandardOpenOption.APPEND);
            }
            return Result.changed(changes);
        }

        @Override
        public void watch(Watcher watcher) throws Exception {
            List<AutoCloseable> watches = new ArrayList<>();
            try {
                for (Package p : packages) watches.add(watcher.watchPath(p.marker(), watcher::changed));
                watcher.ready();
                Watcher.awaitCancel();
            } finally {
                for (AutoCloseable w : watches) w.close();
            }
        }
    }
}
