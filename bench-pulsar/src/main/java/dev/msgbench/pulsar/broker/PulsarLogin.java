package dev.msgbench.pulsar.broker;

/**
 * How a client of the suite's secured standalone logs in (--pulsar-auth): the standalone takes
 * both, so the choice is the client's alone.
 */
public enum PulsarLogin {
    /** User and password, HTTP Basic on the web service (AuthenticationProviderBasic). */
    BASIC,
    /** A JWT signed with the standalone's secret key (AuthenticationProviderToken). */
    TOKEN
}
