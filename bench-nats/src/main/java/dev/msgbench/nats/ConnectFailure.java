package dev.msgbench.nats;

import java.io.IOException;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.TimeoutException;

import javax.net.ssl.SSLException;
import javax.net.ssl.SSLHandshakeException;

import dev.msgbench.core.UserError;
import dev.msgbench.nats.wire.SuiteServerSilence;

/**
 * Why jnats could not connect, as one line a user can act on: a refused login, a certificate not
 * trusted, TLS on one side only, or no server at all. jnats' own messages name the cause in
 * words that vary by case, so the cause chain is read rather than shown.
 */
final class ConnectFailure {

    private ConnectFailure() {
    }

    /**
     * @param servers        the --url list without passwords
     * @param auth           what the client brought: without a certificate of its own, a TLS server that
     *                       never answers is most likely one that demands it (with TLS 1.3 the server
     *                       refuses after the client's handshake is done, and jnats then only times out)
     * @param startedBySuite whether the suite started the server, found it ready and chose its TLS: one
     *                       that does not answer then says nothing about --url
     */
    static UserError describe(IOException e, String servers, Duration timeout, NatsAuth auth, boolean startedBySuite) {
        String text = causeText(e).toLowerCase(Locale.ROOT);
        if (text.contains("authorization violation") || text.contains("authentication")) {
            return new UserError("--url: the NATS server at " + servers + " refused the login (Authorization Violation); "
                    + "check --user and --password-file (or the token, NKey or credentials file)", e);
        }
        SSLHandshakeException handshake = find(e, SSLHandshakeException.class);
        if (handshake != null) {
            String why = String.valueOf(handshake.getMessage()).contains("PKIX")
                    ? "its certificate is not signed by an authority this client trusts"
                    : oneLine(String.valueOf(handshake.getMessage()));
            return new UserError("--url: TLS with the NATS server at " + servers + " failed: " + why
                    + "; give the authority that signed its certificate with --ca (a PEM file)", e);
        }
        if (text.contains("ssl required by server")) {
            return new UserError("--url: the NATS server at " + servers + " requires TLS; use tls:// in --url, "
                    + "or --ca with the authority that signed its certificate", e);
        }
        if (text.contains("ssl required by client") || find(e, SSLException.class) != null) {
            return new UserError("--url: TLS with the NATS server at " + servers + " failed ("
                    + oneLine(causeText(e)) + "); a server without TLS wants nats:// and no --ca", e);
        }
        if (startedBySuite) {
            return new UserError(SuiteServerSilence.describe(servers, timeout), e);
        }
        boolean tls = auth.security().usesTls() || servers.toLowerCase(Locale.ROOT).contains("tls://");
        boolean certificate = auth.security().usesTls() && auth.security().tls().mutual();
        if (tls && !certificate && find(e, TimeoutException.class) != null) {
            return new UserError("--url: the NATS server at " + servers + " did not complete the TLS connection within "
                    + timeout.toSeconds() + " s: if it demands mutual TLS, give a client certificate with --client-cert "
                    + "and --client-key", e);
        }
        return new UserError("--url: no NATS server answered at " + servers + " within " + timeout.toSeconds()
                + " s; check the address, or omit --url to start a local server", e);
    }

    private static <T extends Throwable> T find(Throwable e, Class<T> type) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (type.isInstance(t)) {
                return type.cast(t);
            }
            for (Throwable s : t.getSuppressed()) {
                T found = find(s, type);
                if (found != null) {
                    return found;
                }
            }
        }
        return null;
    }

    private static String causeText(Throwable e) {
        StringBuilder text = new StringBuilder();
        for (Throwable t = e; t != null; t = t.getCause()) {
            text.append(t.getClass().getSimpleName()).append(": ").append(t.getMessage()).append(" / ");
            for (Throwable s : t.getSuppressed()) {
                text.append(causeText(s));
            }
        }
        return text.toString();
    }

    private static String oneLine(String s) {
        return s.replaceAll("\\s+", " ").trim();
    }
}
