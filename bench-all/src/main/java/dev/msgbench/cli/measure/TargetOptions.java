package dev.msgbench.cli.measure;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

import dev.msgbench.cli.Converters;
import dev.msgbench.core.UserError;
import dev.msgbench.core.driver.Acks;
import dev.msgbench.core.security.BrokerSecurity;
import dev.msgbench.core.security.ClientSecurity;
import dev.msgbench.core.security.Secret;
import dev.msgbench.core.security.TlsFiles;
import picocli.CommandLine.Option;

/** Which system to measure, where it runs, and the durability asked of it. */
public final class TargetOptions {

    @Option(names = "--system", paramLabel = "SYSTEM", defaultValue = "kafka",
            description = "System under test: ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE}).",
            completionCandidates = SystemNames.class)
    String system;

    @Option(names = {"--url", "--bootstrap-servers"}, paramLabel = "URL",
            description = "An existing broker or cluster to measure: Kafka host:port[,host:port...]; "
                    + "NATS nats://host:port[,...]; RabbitMQ amqp://[user:password@]host[:port][/vhost]; Redis "
                    + "redis://host:port; Pulsar pulsar://host:6650 (its admin API: --pulsar-admin-url). Without it the suite starts a local broker on free ports and stops it afterwards.")
    public String url;

    @Option(names = "--acks", paramLabel = "ACKS", converter = Converters.AcksValue.class,
            description = "What a publish waits for: 0 = nothing, 1 = the broker has it, all = every replica has it "
                    + "(default: the system's own; Kafka: all). Pulsar: the ledgers' ack quorum, 1 bookie or every "
                    + "bookie of the write quorum (with --brokers 3: ensemble 3, write quorum 3, ack quorum 3).")
    public Acks acks;

    @Option(names = "--brokers", paramLabel = "N", defaultValue = "1",
            description = "Nodes of the local broker (default: ${DEFAULT-VALUE}; 3 makes acks=all with replication real). "
                    + "Pulsar: 1 is a standalone, 3 a cluster of 3 brokers (node=1..3) on 3 bookies (node=4..6) "
                    + "and ZooKeeper.")
    public int brokers;

    @Option(names = "--broker-prop", paramLabel = "KEY=VALUE",
            description = "A server setting for the local broker, e.g. log.flush.interval.messages=1 (repeatable). "
                    + "Kafka's are checked against the broker's own definitions before it starts.")
    public Map<String, String> brokerProps = new LinkedHashMap<>();

    @Option(names = "--forgetful-disks",
            description = "Run the local broker's nodes on forgetful disks (a FUSE layer that forgets what was never "
                    + "synced; root and FUSE needed), as --fault power-loss does, but cut no power: the same run with "
                    + "and without it is what the layer costs.")
    public boolean forgetfulDisks;

    @Option(names = "--secure",
            description = "Start the local broker with TLS (a throwaway CA and certificate made with openssl for this "
                    + "run) and a login (user msgbench, a random password, or the one in --password-file); clients "
                    + "connect over TLS with that login. Everything is in the broker's temporary folder, removed with it.")
    boolean secure;

    @Option(names = "--ca", paramLabel = "FILE",
            description = "With --url: the PEM certificate(s) of the authority that signed the broker's certificate; "
                    + "turns TLS on (default for TLS: the JVM's trusted authorities).")
    Path ca;

    @Option(names = "--client-cert", paramLabel = "FILE",
            description = "With --url: the client's PEM certificate, for brokers that demand mutual TLS (with --client-key).")
    Path clientCert;

    @Option(names = "--client-key", paramLabel = "FILE",
            description = "With --url: the client's private key, unencrypted PKCS#8 PEM (\"BEGIN PRIVATE KEY\").")
    Path clientKey;

    @Option(names = "--user", paramLabel = "NAME",
            description = "With --url: the user to log in as (or in the URL: scheme://user:password@host).")
    String user;

    @Option(names = "--password-file", paramLabel = "FILE",
            description = "The password, read from a file so that it is never on a command line or screen; with "
                    + "--secure, the local broker's password instead of a random one.")
    Path passwordFile;

    @Option(names = "--password-env", paramLabel = "NAME",
            description = "The password, read from environment variable NAME.")
    String passwordEnv;

    /** Whether TLS or a login was asked for a broker given with --url. */
    boolean remoteSecurityGiven() {
        return ca != null || clientCert != null || clientKey != null || user != null;
    }

    /** The password from --password-file or --password-env, or null. */
    Secret password() {
        if (passwordFile != null && passwordEnv != null) {
            throw new UserError("--password-file and --password-env both give the password; use one");
        }
        return passwordFile != null ? Secret.fromFile("--password-file", passwordFile)
                : passwordEnv != null ? Secret.fromEnv("--password-env", passwordEnv) : null;
    }

    /**
     * What the local broker demands (--secure), or null for an open one; throws for flags that
     * only mean something with --url.
     */
    public BrokerSecurity brokerSecurity() {
        if (secure && url != null) {
            throw new UserError("--secure starts a secured local broker, and --url measures a broker already running; "
                    + "for that one give --ca, --user and --password-file");
        }
        if (url == null && remoteSecurityGiven()) {
            throw new UserError(firstRemoteFlag() + " is for a broker given with --url; a local broker started with "
                    + "--secure makes its own certificates and login");
        }
        if (!secure) {
            if (url == null && (passwordFile != null || passwordEnv != null)) {
                throw new UserError((passwordFile != null ? "--password-file" : "--password-env")
                        + " needs --url (a secured broker to reach) or --secure (a local one to secure)");
            }
            return null;
        }
        Secret password = password();
        return password == null ? BrokerSecurity.generated() : BrokerSecurity.generated().withPassword(password);
    }

    /** How clients reach a broker given with --url: TLS with --ca and a client certificate, and a login. */
    public ClientSecurity remoteSecurity() {
        ClientSecurity security = ClientSecurity.NONE;
        if (ca != null || clientCert != null || clientKey != null) {
            security = security.withTls(new TlsFiles(ca, clientCert, clientKey));
        }
        Secret password = password();
        if (user != null || password != null) {
            security = security.withLogin(user, password);
        }
        return security;
    }

    private String firstRemoteFlag() {
        return ca != null ? "--ca" : clientCert != null ? "--client-cert" : clientKey != null ? "--client-key" : "--user";
    }

    static final class SystemNames implements Iterable<String> {
        @Override
        public java.util.Iterator<String> iterator() {
            return dev.msgbench.core.system.Systems.names().iterator();
        }
    }
}
