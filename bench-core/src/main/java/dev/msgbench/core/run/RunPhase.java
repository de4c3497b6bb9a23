package dev.msgbench.core.run;

/** Where a run is, as its live figures say it: the phase of the moment, not of a message's intended time. */
public enum RunPhase {
    WARM_UP("warm-up"),
    MEASURED("measured"),
    /** Sending is over; waiting for what is still missing. */
    DRAIN("drain"),
    /** The last interval has been taken: the counts are final. */
    DONE("done");

    private final String label;

    RunPhase(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }
}
