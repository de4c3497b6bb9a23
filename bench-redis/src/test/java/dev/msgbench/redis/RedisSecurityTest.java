package dev.msgbench.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import dev.msgbench.core.UserError;
import dev.msgbench.core.broker.BrokerSpec;
import dev.msgbench.core.driver.RunPlan;
import dev.msgbench.core.result.RunResult;
import dev.msgbench.core.result.RunStatus;
import dev.msgbench.core.security.BrokerSecurity;
import dev.msgbench.core.security.ClientSecurity;
import dev.msgbench.core.security.Secret;
import dev.msgbench.core.security.TlsFiles;
import dev.msgbench.core.testing.NeedsBroker;
import dev.msgbench.core.testing.ShortRuns;
import dev.msgbench.redis.broker.LocalRedis;
import dev.msgbench.redis.broker.RedisBrokerSpec;
import dev.msgbench.redis.direct.DirectConnections;
import dev.msgbench.redis.resp.Resp;
import io.lettuce.core.RedisCredentials;
import io.lettuce.core.RedisURI;

/** A local redis-server with TLS and an ACL login (--secure), and the clients that reach it or are refused. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
@NeedsBroker
class RedisSecurityTest {

    private static final String PASSWORD = "s3cret-Redis-pw";
    private static LocalRedis redis;

    @TempDir
    Path dir;

    @BeforeAll
    static void startSecuredRedis() {
        redis = LocalRedis.start(RedisBrokerSpec.of(BrokerSpec.defaults()
                .withSecurity(BrokerSecurity.generated().withPassword(Secret.of(PASSWORD)))));
    }

    @AfterAll
    static void stopRedis() {
        if (redis != null) {
            redis.close();
        }
    }

    @Test
    void theSecuredServerListensOnTlsOnlyOnLoopbackWithoutTheDefaultUser() throws Exception {
        assertEquals("rediss://127.0.0.1:" + redis.port(1), redis.url());
        assertEquals("127.0.0.1", Resp.configGet(redis.endpoint(1), "bind"));
        assertEquals("0", Resp.configGet(redis.endpoint(1), "port"), "no plaintext port");
        assertEquals(Integer.toString(redis.port(1)), Resp.configGet(redis.endpoint(1), "tls-port"));
        Resp.Endpoint anonymous = new Resp.Endpoint(redis.port(1), redis.localSecurity().pki().clientTls().sslContext(),
                null, null);
        assertEquals("redis answered: NOAUTH Authentication required.",
                assertThrows(IOException.class, () -> Resp.call(anonymous, "PING")).getMessage(), "the default user is off");
    }

    @Test
    void thePasswordIsInNoCommandLineAndNoLogAndTheConfigAndTempDirAreTheOwnersOnly() throws Exception {
        String commandLine = Files.readString(Path.of("/proc/" + redis.pid(1) + "/cmdline")).replace('\0', ' ');
        assertFalse(commandLine.contains(PASSWORD), commandLine);
        try (Stream<Path> logs = Files.list(redis.logDir())) {
            for (Path log : (Iterable<Path>) logs::iterator) {
                assertFalse(Files.readString(log).contains(PASSWORD), log.toString());
            }
        }
        Path tempDir = redis.localSecurity().passwordFile().getParent().getParent();
        Path config = tempDir.resolve("redis-1.conf");
        assertFalse(Files.readString(config).contains(PASSWORD), "the primary's file holds the password's hash only");
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(config)));
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(tempDir)));
        assertEquals("rw-------", PosixFilePermissions.toString(
                Files.getPosixFilePermissions(redis.localSecurity().passwordFile())));
    }

    @Test
    void lettuceWithTheLoginPublishesAndReceivesEveryMessage() throws Exception {
        RunResult r;
        try (RedisPubSubSystem system = new RedisPubSubSystem(
                RedisSettings.defaults(redis.url()).withSecurity(redis.clientSecurity()))) {
            r = ShortRuns.runWithoutClosing(system, dir, 500, 128, 1, 1, Duration.ofMillis(200), Duration.ofSeconds(1));
        }
        assertEquals(RunStatus.COMPLETE, r.status(), r.warnings().toString());
        assertEquals(600, r.counts().received());
        assertEquals(0, r.counts().lost());
    }

    @Test
    void redisStreamsWithTheLoginPublishesAndReceivesEveryMessage() throws Exception {
        RunResult r;
        try (RedisStreamsSystem system = new RedisStreamsSystem(
                RedisSettings.defaults(redis.url()).withSecurity(redis.clientSecurity()), StreamSettings.defaults())) {
            r = ShortRuns.runWithoutClosing(system, dir, 500, 128, 1, 1, Duration.ofMillis(200), Duration.ofSeconds(1));
        }
        assertEquals(RunStatus.COMPLETE, r.status(), r.warnings().toString());
        assertEquals(600, r.counts().received());
        assertEquals(0, r.counts().lost());
    }

    @Test
    void aWrongPasswordIsOneLineNamingTheRefusedLogin() {
        ClientSecurity wrong = redis.clientSecurity().withLogin("msgbench", Secret.of("not-the-password"));
        UserError e = prepareFails(RedisSettings.defaults(redis.url()).withSecurity(wrong));
        assertEquals("--url: the Redis server at " + redis.url() + " refused the login (WRONGPASS invalid "
                + "username-password pair or user is disabled.); check --user and --password-file, or the user "
                + "and password in the URL", e.getMessage());
    }

    @Test
    void aServerCertificateFromAnUnknownAuthorityIsOneLineNamingTheCaFlag() {
        ClientSecurity noCa = redis.clientSecurity().withTls(TlsFiles.DEFAULT_TRUST);
        UserError e = prepareFails(RedisSettings.defaults(redis.url()).withSecurity(noCa));
        assertEquals("--url: the Redis server at " + redis.url() + " presented a certificate that is not trusted "
                + "(unable to find valid certification path to requested target); pass the CA that signed it with "
                + "--ca FILE", e.getMessage());
    }

    @Test
    void theDirectClientRefusesTlsAndSaysToUseLettuce() {
        UserError e = prepareFails(RedisSettings.defaults(redis.url()).withSecurity(redis.clientSecurity())
                .withClient(RedisClientKind.DIRECT));
        assertEquals("--url: '127.0.0.1:" + redis.port(1) + "' uses TLS (rediss:// or --ca), which --redis-client "
                + "direct does not speak; use --redis-client lettuce", e.getMessage());
    }

    @Test
    void theDirectClientReachingATlsPortInPlaintextIsOneLine() {
        RedisURI plaintext = RedisConnector.secured(RedisURI.create("redis://127.0.0.1:" + redis.port(1)),
                redis.clientSecurity().withTls(null));
        UserError e = assertThrows(UserError.class,
                () -> DirectConnections.open(plaintext, "msgbench-producer-0", Duration.ofSeconds(5)));
        assertTrue(e.getMessage().startsWith("--url: the Redis server at 127.0.0.1:" + redis.port(1)
                + " did not answer the login and CLIENT SETNAME ("), e.getMessage());
        assertTrue(e.getMessage().endsWith("); a server that demands TLS does that, and --redis-client direct does "
                + "not speak TLS: use --redis-client lettuce with rediss://127.0.0.1:" + redis.port(1)), e.getMessage());
        assertFalse(e.getMessage().contains("\n"), e.getMessage());
        assertFalse(e.getMessage().contains(PASSWORD), e.getMessage());
    }

    @Test
    void lettuceReachingATlsPortInPlaintextIsOneLine() {
        ClientSecurity plaintext = redis.clientSecurity().withTls(null);
        UserError e = prepareFails(RedisSettings.defaults("redis://127.0.0.1:" + redis.port(1)).withSecurity(plaintext));
        assertEquals("--url: no Redis server answered at redis://127.0.0.1:" + redis.port(1) + " within 5 s (Connection "
                + "reset; a server that demands TLS drops a plaintext client: use rediss:// and --ca); check the address, "
                + "or omit the flag to start a local broker", e.getMessage());
    }

    /** --brokers 2 --secure with mutual TLS: the replica follows over TLS with the login, a client needs its certificate. */
    @Test
    void aReplicaFollowsOverMutualTlsAndAClientWithoutACertificateIsOneLine() throws Exception {
        try (LocalRedis pair = LocalRedis.start(RedisBrokerSpec.of(BrokerSpec.defaults().withNodes(2)
                .withSecurity(BrokerSecurity.generated().withMutualTls(true))))) {
            assertEquals("up", Resp.infoField(Resp.call(pair.endpoint(2), "INFO", "replication"), "master_link_status"));
            assertEquals("yes", Resp.configGet(pair.endpoint(1), "tls-auth-clients"));
            RunResult r;
            try (RedisStreamsSystem system = new RedisStreamsSystem(
                    RedisSettings.defaults(pair.url()).withAcks(RedisAcks.REPLICAS).withSecurity(pair.clientSecurity()),
                    StreamSettings.defaults())) {
                r = ShortRuns.runWithoutClosing(system, dir, 200, 64, 1, 1, Duration.ofMillis(200), Duration.ofSeconds(1));
            }
            assertEquals(RunStatus.COMPLETE, r.status(), r.warnings().toString());
            assertEquals(240, r.counts().acknowledged());
            assertEquals(0, r.counts().lost());

            TlsFiles caOnly = new TlsFiles(pair.localSecurity().pki().caFile(), null, null);
            UserError e = prepareFails(RedisSettings.defaults(pair.url()).withSecurity(pair.clientSecurity().withTls(caOnly)));
            assertTrue(e.getMessage().startsWith("--url: the TLS handshake with the Redis server at " + pair.url()
                    + " failed ("), e.getMessage());
            assertTrue(e.getMessage().endsWith("); check --ca, and --client-cert/--client-key when the server demands "
                    + "a client certificate"), e.getMessage());
        }
    }

    /** A plaintext server with an ACL user: both clients log in with --user/--password-file, which win over the URL's. */
    @ParameterizedTest(name = "--redis-client {0}")
    @EnumSource(RedisClientKind.class)
    void aLoginFromTheFlagsReachesAPlaintextServerThatWantsOne(RedisClientKind client) throws Exception {
        try (LocalRedis plain = LocalRedis.start(RedisBrokerSpec.defaults())) {
            Resp.call(plain.port(1), "ACL", "SETUSER", "carol", "on", ">carols-pw", "~*", "&*", "+@all");
            Resp.call(plain.port(1), "ACL", "SETUSER", "default", "off");
            ClientSecurity login = ClientSecurity.NONE.withLogin("carol", Secret.of("carols-pw"));
            String urlWithAnother = plain.url().replace("redis://", "redis://alice:not-used@");
            RunResult r;
            try (RedisPubSubSystem system = new RedisPubSubSystem(
                    RedisSettings.defaults(urlWithAnother).withClient(client).withSecurity(login))) {
                r = ShortRuns.runWithoutClosing(system, dir, 200, 64, 1, 1, Duration.ofMillis(200), Duration.ofSeconds(1));
            }
            assertEquals(RunStatus.COMPLETE, r.status(), r.warnings().toString());
            assertEquals(240, r.counts().received());
            assertEquals(0, r.counts().lost());
        }
    }

    @Test
    void theFlagsPasswordGoesWithTheUrlsUserUnlessUserIsGiven() {
        RedisURI url = RedisURI.create("rediss://dave:url-pw@127.0.0.1:6379");
        RedisCredentials urlUser = RedisConnector.secured(url, ClientSecurity.NONE.withLogin(null, Secret.of("flag-pw")))
                .getCredentialsProvider().resolveCredentials().block();
        assertEquals("dave", urlUser.getUsername());
        assertEquals("flag-pw", new String(urlUser.getPassword()));
        RedisCredentials flagUser = RedisConnector.secured(url, ClientSecurity.NONE.withLogin("erin", Secret.of("flag-pw")))
                .getCredentialsProvider().resolveCredentials().block();
        assertEquals("erin", flagUser.getUsername());
        assertTrue(RedisConnector.secured(RedisURI.create("redis://127.0.0.1:6379"),
                ClientSecurity.NONE.withTls(TlsFiles.DEFAULT_TRUST)).isSsl(), "--ca turns TLS on for redis://");
    }

    @Test
    void anUnreachableServerIsNamedWithoutThePasswordOfItsUrl() {
        UserError e = prepareFails(RedisSettings.defaults("redis://msgbench:pw-in-the-url@127.0.0.1:1"));
        assertEquals("--url: no Redis server answered at redis://msgbench:***@127.0.0.1:1 within 5 s; check the address, "
                + "or omit the flag to start a local broker", e.getMessage());
    }

    private static UserError prepareFails(RedisSettings settings) {
        RedisPubSubSystem system = new RedisPubSubSystem(settings);
        try (system) {
            return assertThrows(UserError.class, () -> system.prepare(new RunPlan("msgbench-sec", 64, 1, 1)));
        } catch (Exception e) {
            throw new AssertionError("close failed", e);
        }
    }
}
