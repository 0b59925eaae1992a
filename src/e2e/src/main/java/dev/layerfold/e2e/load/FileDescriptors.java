package dev.layerfold.e2e.load;

import com.sun.management.UnixOperatingSystemMXBean;
import java.lang.management.ManagementFactory;

/** The open-file limit that holding thousands of connections from this JVM needs. */
public final class FileDescriptors {

    private FileDescriptors() {
    }

    /** Fails early, naming the fix, rather than with "Too many open files" halfway. */
    public static void require(long needed, String why) {
        if (ManagementFactory.getOperatingSystemMXBean() instanceof UnixOperatingSystemMXBean unix
                && unix.getMaxFileDescriptorCount() < needed) {
            throw new IllegalStateException(why + " holds " + needed + " connections, but this process may open only "
                    + unix.getMaxFileDescriptorCount() + " files; raise the limit (ulimit -n 16384; .ci/run does)");
        }
    }
}
