package dev.msgbench.core;

/**
 * A problem the user can fix: bad input, a missing program, an unreachable server.
 *
 * <p>The command line prints only the message, on one line, and exits with code 2; no stack
 * trace. The message names the flag or file, the rule and the offending value, and where it
 * can, the next step ("install nats-server or pass --url").
 */
public class UserError extends RuntimeException {

    public UserError(String message) {
        super(message, null, false, false);
    }

    public UserError(String message, Throwable cause) {
        super(message, cause, false, false);
    }
}
