package dev.msgbench.nats.broker;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.util.Map;

import io.nats.client.NKey;
import io.nats.client.support.JsonSerializable;
import io.nats.client.support.JwtUtils;

/**
 * An operator and one account, made with jnats' NKeys so that tests run nats-server in operator
 * (JWT) mode without nsc or a network: {@link #serverProps} trusts the operator and preloads the
 * account; {@link #writeUserCreds} issues a user of the account as a credentials file.
 */
public final class JwtOperator {

    /** An account without limits: a claim that leaves them out means zero connections. */
    private static final String UNLIMITED_ACCOUNT = "{\"limits\":{\"subs\":-1,\"data\":-1,\"payload\":-1,"
            + "\"imports\":-1,\"exports\":-1,\"wildcards\":true,\"conn\":-1,\"leaf\":-1},"
            + "\"type\":\"account\",\"version\":2}";
    private static final String UNLIMITED_USER = "{\"pub\":{},\"sub\":{},\"subs\":-1,\"data\":-1,\"payload\":-1,"
            + "\"type\":\"user\",\"version\":2}";

    private final String operatorJwt;
    private final NKey account;
    private final String accountJwt;

    private JwtOperator(String operatorJwt, NKey account, String accountJwt) {
        this.operatorJwt = operatorJwt;
        this.account = account;
        this.accountJwt = accountJwt;
    }

    public static JwtOperator create() throws GeneralSecurityException, IOException {
        NKey operator = NKey.createOperator(null);
        NKey account = NKey.createAccount(null);
        String operatorJwt = issue(operator, operator, "msgbench-operator", "{\"type\":\"operator\",\"version\":2}");
        return new JwtOperator(operatorJwt, account, issue(operator, account, "msgbench-account", UNLIMITED_ACCOUNT));
    }

    /** What a nats-server config needs to trust this operator and know its account (--broker-prop form). */
    public Map<String, String> serverProps() throws GeneralSecurityException, IOException {
        return Map.of("operator", quoted(operatorJwt), "resolver", "MEMORY",
                "resolver_preload." + publicKey(account), quoted(accountJwt));
    }

    /**
     * Issues a new user of this account and writes its JWT and seed to {@code file}, as nsc does.
     *
     * @return the user's seed, the secret in the file
     */
    public String writeUserCreds(Path file) throws GeneralSecurityException, IOException {
        NKey user = NKey.createUser(null);
        String jwt = issue(account, user, "msgbench-user", UNLIMITED_USER);
        String seed = new String(user.getSeed());
        Files.writeString(file, String.format(JwtUtils.NATS_USER_JWT_FORMAT, jwt, seed), StandardCharsets.UTF_8);
        return seed;
    }

    private static String issue(NKey issuer, NKey subject, String name, String natsClaims)
            throws GeneralSecurityException, IOException {
        JsonSerializable nats = () -> natsClaims;
        return JwtUtils.issueJWT(issuer, publicKey(subject), name, null, JwtUtils.currentTimeSeconds(),
                publicKey(issuer), null, nats);
    }

    private static String publicKey(NKey key) throws GeneralSecurityException, IOException {
        return new String(key.getPublicKey());
    }

    private static String quoted(String jwt) {
        return "\"" + jwt + "\"";
    }
}
