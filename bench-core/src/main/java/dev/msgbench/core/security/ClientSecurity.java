package dev.msgbench.core.security;

/**
 * How a client reaches a secured broker: TLS (null = plaintext) and a login (user and password;
 * or a token alone, as NATS and Redis take one). Every system's adapter reads the same record;
 * what a system cannot use it refuses with one line.
 */
public record ClientSecurity(TlsFiles tls, String user, Secret password, Secret token) {

    public static final ClientSecurity NONE = new ClientSecurity(null, null, null, null);

    public boolean usesTls() {
        return tls != null;
    }

    public boolean hasLogin() {
        return user != null || password != null || token != null;
    }

    public ClientSecurity withTls(TlsFiles files) {
        return new ClientSecurity(files, user, password, token);
    }

    public ClientSecurity withLogin(String newUser, Secret newPassword) {
        return new ClientSecurity(tls, newUser, newPassword, token);
    }

    public ClientSecurity withToken(Secret newToken) {
        return new ClientSecurity(tls, user, password, newToken);
    }

    /** For logs and results: what is used, never a secret. */
    @Override
    public String toString() {
        return (tls == null ? "plaintext" : tls.mutual() ? "mutual TLS" : "TLS")
                + (user != null ? ", user " + user : "") + (password != null ? ", password" : "")
                + (token != null ? ", token" : "");
    }
}
