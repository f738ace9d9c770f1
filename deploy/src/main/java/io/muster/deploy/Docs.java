package io.muster.deploy;

import io.muster.cli.Main;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import picocli.AutoComplete;
import picocli.CommandLine;
import picocli.codegen.docgen.manpage.ManPageGenerator;

/**
 * Writes what the package installs beside the command, from the picocli model of every subcommand: the bash
 * completion script, the zsh completion that loads it, and one AsciiDoc man page per command (asciidoctor turns
 * them into troff). Picocli's own entry points build the model from the class alone, which misses the subcommands
 * {@link Main#commandLine} adds, hence this class.
 */
public final class Docs {
    private Docs() {}

    /** {@code Docs OUT_DIR}: writes OUT_DIR/bash/muster, OUT_DIR/zsh/_muster and OUT_DIR/adoc/muster*.adoc. */
    public static void main(String[] args) throws IOException {
        if (args.length != 1) throw new IllegalArgumentException("usage: Docs OUT_DIR");
        Path out = Path.of(args[0]);
        CommandLine muster = Main.commandLine(); // no arguments: every subcommand
        write(out.resolve("bash/muster"), AutoComplete.bash("muster", muster));
        write(out.resolve("zsh/_muster"), ZSH);
        Path adoc = Files.createDirectories(out.resolve("adoc"));
        int failed = ManPageGenerator.generateManPage(adoc.toFile(), null, new boolean[0], true, muster.getCommandSpec());
        if (failed != 0) throw new IOException("ManPageGenerator failed with " + failed + " writing " + adoc);
    }

    /**
     * zsh loads {@code _muster} from its vendor-completions directory on the first completion of {@code muster}; it
     * sources picocli's bash script, which turns on zsh's bash emulation (bashcompinit) and registers itself for the
     * next completions, and completes this first one.
     */
    private static final String ZSH = """
            #compdef muster
            source /usr/share/bash-completion/completions/muster
            _bash_complete -F _complete_muster "$@"
            """;

    private static void write(Path file, String text) throws IOException {
        Files.createDirectories(file.getParent());
        Files.writeString(file, text);
    }
}
