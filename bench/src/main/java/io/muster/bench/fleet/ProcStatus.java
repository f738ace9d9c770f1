package io.muster.bench.fleet;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Figures from /proc/PID/status and /proc/PID/stat. */
final class ProcStatus {
    private ProcStatus() {}

    /** VmHWM, the peak resident set, in MB. */
    static double peakRssMb(long pid) throws IOException {
        return field(pid, "VmHWM") / 1024.0;
    }

    /** The number of threads (platform threads: virtual ones are not the kernel's). */
    static long threads(long pid) throws IOException {
        return field(pid, "Threads");
    }

    /**
     * The CPU time it has used so far (user and system), in seconds: /proc/PID/stat's utime and stime, in clock
     * ticks of 1/100 s (USER_HZ, 100 on Linux whatever the kernel's HZ).
     */
    static double cpuSeconds(long pid) throws IOException {
        String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" "); // after "pid (comm) ": state is fields[0]
        return (Long.parseLong(fields[11]) + Long.parseLong(fields[12])) / 100.0;
    }

    private static long field(long pid, String name) throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/" + pid + "/status"))) {
            if (line.startsWith(name + ":")) return Long.parseLong(line.substring(name.length() + 1).trim().split("\\s+")[0]);
        }
        throw new IOException("/proc/" + pid + "/status has no " + name);
    }
}
