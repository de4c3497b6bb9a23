package dev.msgbench.core.security;

import java.security.SecureRandom;

/**
 * What a local broker started with --secure demands: TLS with a throwaway certificate, and a
 * login. The password is random unless the user gave one (--password-file), so that nothing
 * guessable guards even a throwaway broker.
 *
 * @param mutualTls whether the broker also demands a client certificate
 */
public record BrokerSecurity(String user, Secret password, boolean mutualTls) {

    public static final String DEFAULT_USER = "msgbench";
    private static final char[] ALPHABET = "abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789".toCharArray();
    private static final int GENERATED_LENGTH = 24;

    /** TLS, user {@value #DEFAULT_USER}, a random password. */
    public static BrokerSecurity generated() {
        SecureRandom random = new SecureRandom();
        StringBuilder password = new StringBuilder(GENERATED_LENGTH);
        for (int i = 0; i < GENERATED_LENGTH; i++) {
            password.append(ALPHABET[random.nextInt(ALPHABET.length)]);
        }
        return new BrokerSecurity(DEFAULT_USER, Secret.of(password.toString()), false);
    }

    public BrokerSecurity withPassword(Secret newPassword) {
        return new BrokerSecurity(user, newPassword, mutualTls);
    }

    public BrokerSecurity withUser(String newUser) {
        return new BrokerSecurity(newUser, password, mutualTls);
    }

    public BrokerSecurity withMutualTls(boolean mutual) {
        return new BrokerSecurity(user, password, mutual);
    }
}
