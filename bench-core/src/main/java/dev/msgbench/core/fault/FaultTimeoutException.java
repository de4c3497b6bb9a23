package dev.msgbench.core.fault;

/** Nothing arrived for longer than --fault-timeout after a fault: the run ends with partial results. */
public final class FaultTimeoutException extends Exception {

    private static final long serialVersionUID = 1L;

    public FaultTimeoutException(String message) {
        super(message);
    }
}
