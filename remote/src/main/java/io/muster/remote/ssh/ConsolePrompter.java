package io.muster.remote.ssh;

import com.jcraft.jsch.UIKeyboardInteractive;
import com.jcraft.jsch.UserInfo;
import java.io.Console;

/**
 * Asks the user on the terminal, without echo, for a password or a key's passphrase (only with --allow-interactive).
 * Without a terminal it answers nothing, and the login fails as if no password were allowed. Hosts connecting in
 * parallel ask one at a time, each prompt naming its host.
 */
final class ConsolePrompter implements UserInfo, UIKeyboardInteractive {
    private static final Object TERMINAL = new Object();

    private final String who;
    private String answer;

    ConsolePrompter(String who) {
        this.who = who;
    }

    @Override
    public boolean promptPassword(String message) {
        return ask("password for " + who);
    }

    @Override
    public boolean promptPassphrase(String message) {
        return ask(message + " (logging in to " + who + ")");
    }

    @Override
    public String getPassword() {
        return answer;
    }

    @Override
    public String getPassphrase() {
        return answer;
    }

    @Override
    public String[] promptKeyboardInteractive(String destination, String name, String instruction, String[] prompts, boolean[] echo) {
        Console console = System.console();
        if (console == null) return null;
        String[] answers = new String[prompts.length];
        synchronized (TERMINAL) {
            if (!instruction.isBlank()) console.printf("%s: %s%n", who, instruction);
            for (int i = 0; i < prompts.length; i++) {
                String prompt = who + ": " + prompts[i].strip() + " ";
                char[] typed = echo[i] ? toChars(console.readLine("%s", prompt)) : console.readPassword("%s", prompt);
                if (typed == null) return null; // end of input: the login is cancelled
                answers[i] = new String(typed);
            }
        }
        return answers;
    }

    private static char[] toChars(String line) {
        return line == null ? null : line.toCharArray();
    }

    private boolean ask(String prompt) {
        Console console = System.console();
        if (console == null) return false;
        char[] typed;
        synchronized (TERMINAL) {
            typed = console.readPassword("%s: ", prompt);
        }
        answer = typed == null ? null : new String(typed);
        return typed != null;
    }

    @Override
    public boolean promptYesNo(String message) {
        return false; // host keys are decided by known_hosts and --accept-new-host-keys, never on the terminal
    }

    @Override
    public void showMessage(String message) {
        // JSch's multi-line host key warnings: HostKeyTrust's one-line reason is what the user sees
    }
}
