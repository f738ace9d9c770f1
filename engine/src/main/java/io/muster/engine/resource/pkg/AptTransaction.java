package io.muster.engine.resource.pkg;

import java.util.ArrayList;
import java.util.List;

/**
 * One {@code apt-get install}: every package it installs, up- or downgrades and removes ({@code NAME-}),
 * which apt resolves together and dpkg applies in one run. Without removals asked for it runs with
 * {@code --no-remove}, so an install never takes another package away; a pinned version may go down
 * ({@code --allow-downgrades}); removals purge with {@code --purge}.
 */
record AptTransaction(List<Step> steps) {

    AptTransaction {
        steps = List.copyOf(steps);
    }

    /**
     * The transactions {@code steps} take: one, unless packages to remove and packages to purge meet, since
     * {@code --purge} applies to every removal of a run: then the purges follow in a second one.
     */
    static List<AptTransaction> of(List<Step> steps) {
        boolean removes = steps.stream().anyMatch(s -> s.removal() && !s.purge());
        List<Step> first = steps.stream().filter(s -> !(removes && s.purge())).toList();
        List<Step> purges = steps.stream().filter(s -> removes && s.purge()).toList();
        return purges.isEmpty() ? List.of(new AptTransaction(first)) : List.of(new AptTransaction(first), new AptTransaction(purges));
    }

    boolean removes() {
        return steps.stream().anyMatch(Step::removal);
    }

    /** The names of the packages it is asked to remove. */
    List<String> removals() {
        return steps.stream().filter(Step::removal).map(s -> s.resource().name()).toList();
    }

    /** Its command line after {@code aptGet} (apt-get and its options); with {@code simulate}, {@code -s}. */
    List<String> argv(List<String> aptGet, boolean simulate) {
        List<String> argv = new ArrayList<>(aptGet);
        if (simulate) argv.add("-s");
        if (steps.stream().anyMatch(Step::purge)) argv.add("--purge");
        if (steps.stream().anyMatch(Step::pinned)) argv.add("--allow-downgrades");
        if (!removes()) argv.add("--no-remove");
        argv.add("install");
        steps.forEach(s -> argv.add(s.argument()));
        return argv;
    }
}
