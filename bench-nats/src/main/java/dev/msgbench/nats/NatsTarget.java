package dev.msgbench.nats;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

import dev.msgbench.core.UserError;
import dev.msgbench.core.broker.LocalBroker;
import dev.msgbench.core.driver.Acks;
import dev.msgbench.core.driver.MessagingSystem;
import dev.msgbench.core.security.ClientSecurity;
import dev.msgbench.core.security.Secret;
import dev.msgbench.core.system.NativeTool;
import dev.msgbench.core.system.SystemTarget;
import dev.msgbench.nats.broker.LocalNatsServer;
import dev.msgbench.nats.broker.NatsServerSpec;
import dev.msgbench.nats.nativetool.NatsBench;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Option;
import picocli.CommandLine.TypeConversionException;

/** Core NATS publish/subscribe and request/reply: flags and local nats-server (without JetStream). */
public final class NatsTarget implements SystemTarget {

    @Option(names = "--nats-pattern", paramLabel = "PATTERN", defaultValue = "pubsub", converter = PatternConverter.class,
            description = "NATS: pubsub, or request-reply: a responder on its own connection echoes each message back "
                    + "and latency is the round trip through the server twice, E3's request (default: ${DEFAULT-VALUE}).")
    NatsPattern pattern;

    @Option(names = "--nats-client", paramLabel = "CLIENT", defaultValue = "jnats", converter = ClientConverter.class,
            description = "NATS: what producers and consumers speak with: jnats (the official Java client, whose writer "
                    + "thread takes each message from a queue and whose dispatcher thread delivers each one), or direct "
                    + "(the suite speaks the NATS protocol itself: producers write from their own thread, consumers read "
                    + "on their connection's thread; plain nats:// only; about three times jnats' publishing rate on 2 "
                    + "cores, so the server, not the client, is measured). Request-reply's responders use jnats either "
                    + "way (default: ${DEFAULT-VALUE}).")
    NatsClient client;

    @Option(names = "--nats-token-file", paramLabel = "FILE",
            description = "NATS and JetStream, with --url: log in with the token in FILE (read from a file so that it "
                    + "is never on a command line or screen).")
    Path tokenFile;

    @Option(names = "--nats-nkey", paramLabel = "FILE",
            description = "NATS and JetStream, with --url: log in with the NKey seed (SU...) in FILE.")
    Path nkeyFile;

    @Option(names = "--nats-creds", paramLabel = "FILE",
            description = "NATS and JetStream, with --url: log in with a credentials file (a user JWT and its NKey "
                    + "seed, as nsc writes them).")
    Path credsFile;

    @Override
    public String name() {
        return "nats";
    }

    @Override
    public String diskFaultRefused(int localNodes, Map<String, String> brokerProps) {
        return "core NATS holds a message in memory only, until it is delivered; use kill@TIME, or --system jetstream";
    }

    @Override
    public Optional<NativeTool> nativeTool() {
        return Optional.of(new NatsBench());
    }

    @Override
    public void validate(Acks acks, int localNodes) {
        NatsSettings.checkAcks(acks);
        checkLoginFlags(localNodes);
    }

    @Override
    public String echoRefused() {
        return pattern == NatsPattern.REQUEST_REPLY
                ? "--pattern echo and --nats-pattern request-reply are two round trips; give one of them" : null;
    }

    @Override
    public boolean securable() {
        return true;
    }

    /** The NATS-only logins reach a server given with --url; a local one (--secure) has its own. */
    void checkLoginFlags(int localNodes) {
        String flag = tokenFile != null ? "--nats-token-file" : nkeyFile != null ? "--nats-nkey"
                : credsFile != null ? "--nats-creds" : null;
        if (flag != null && localNodes > 0) {
            throw new UserError(flag + " logs in to a NATS server given with --url; a local server started with "
                    + "--secure has its own login");
        }
        if (credsFile != null && !Files.isReadable(credsFile)) {
            throw new UserError("--nats-creds: cannot read " + credsFile);
        }
    }

    /** TLS and the login: the local server's, or --ca, --user ... and the NATS-only flags for --url. */
    NatsAuth auth(ClientSecurity security) {
        ClientSecurity withToken = tokenFile == null ? security
                : security.withToken(Secret.fromFile("--nats-token-file", tokenFile));
        if (credsFile != null) {
            hideSeedOf(credsFile);
        }
        return new NatsAuth(withToken, nkeyFile == null ? null : Secret.fromFile("--nats-nkey", nkeyFile), credsFile);
    }

    /**
     * jnats reads the credentials file itself; its NKey seed (the line SU...) is registered as a
     * secret all the same, so that no line the suite prints or writes can show it.
     */
    static void hideSeedOf(Path credsFile) {
        String text;
        try {
            text = Files.readString(credsFile, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UserError("--nats-creds: cannot read " + credsFile + " (" + e.getClass().getSimpleName() + ")");
        }
        text.lines().map(String::strip).filter(line -> line.matches("SU[A-Z2-7]+")).forEach(Secret::of);
    }

    @Override
    public LocalBroker startLocalBroker(BrokerRequest request) {
        return LocalNatsServer.start(NatsServerSpec.of(request.broker())
                .withMaxPayloadBytes(NatsServerSpec.maxPayloadFor(request.messageSizeBytes())));
    }

    @Override
    public MessagingSystem connect(ConnectRequest request) {
        return new NatsSystem(NatsSettings.defaults(request.url()).withPattern(pattern).withPublisherClient(client)
                .withAuth(auth(request.security())).withConnectTimeout(connectTimeout(request))
                .withStartedBySuite(request.broker() != null));
    }

    /** A server the suite started answers: a longer bound keeps a busy machine from failing the run. */
    static Duration connectTimeout(ConnectRequest request) {
        return request.broker() != null ? NatsSettings.LOCAL_CONNECT_TIMEOUT : NatsSettings.DEFAULT_CONNECT_TIMEOUT;
    }

    static final class ClientConverter implements ITypeConverter<NatsClient> {
        @Override
        public NatsClient convert(String value) {
            try {
                return NatsClient.of(value);
            } catch (IllegalArgumentException e) {
                throw new TypeConversionException(e.getMessage());
            }
        }
    }

    static final class PatternConverter implements ITypeConverter<NatsPattern> {
        @Override
        public NatsPattern convert(String value) {
            try {
                return NatsPattern.of(value);
            } catch (IllegalArgumentException e) {
                throw new TypeConversionException(e.getMessage());
            }
        }
    }
}
