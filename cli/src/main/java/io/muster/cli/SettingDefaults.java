package io.muster.cli;

import picocli.CommandLine;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.OptionSpec;

/** Picocli's view of the {@link Settings}: a flag of {@link Setting#ALL} missing from the command line takes its value from them. */
record SettingDefaults(Settings settings) implements CommandLine.IDefaultValueProvider {
    @Override
    public String defaultValue(ArgSpec arg) {
        if (!(arg instanceof OptionSpec option) || !option.longestName().startsWith("--")) return null;
        Setting setting = Setting.BY_KEY.get(option.longestName().substring(2));
        if (setting == null || !appliesTo(setting, option)) return null;
        return settings.value(setting);
    }

    /** {@code host} names the agent's host; status's --host is a filter, which a setting must not narrow. */
    private static boolean appliesTo(Setting setting, OptionSpec option) {
        return !setting.key().equals("host") || option.command().userObject() instanceof AgentCommand;
    }
}
