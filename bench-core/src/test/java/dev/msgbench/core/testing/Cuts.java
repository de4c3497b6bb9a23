package dev.msgbench.core.testing;

import java.util.ArrayList;
import java.util.List;

/** The ways a TCP stream may cut bytes into reads that protocol tests try: everywhere once, and into single bytes. */
public final class Cuts {

    private Cuts() {
    }

    /** For {@code length} bytes: one cut at each boundary, then a cut at every boundary. */
    public static List<int[]> every(int length) {
        List<int[]> cuts = new ArrayList<>();
        for (int cut = 1; cut < length; cut++) {
            cuts.add(new int[] {cut});
        }
        cuts.add(singleBytes(length));
        return cuts;
    }

    /** Cuts at every boundary: one byte a read. */
    public static int[] singleBytes(int length) {
        int[] all = new int[Math.max(0, length - 1)];
        for (int i = 1; i < length; i++) {
            all[i - 1] = i;
        }
        return all;
    }
}
