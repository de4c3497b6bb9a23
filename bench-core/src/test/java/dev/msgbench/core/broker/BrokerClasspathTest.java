package dev.msgbench.core.broker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.sun.net.httpserver.HttpServer;
import dev.msgbench.core.UserError;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** A broker's jars from the local Maven repository, and from a remote one (a server on loopback) when missing. */
@Timeout(30)
class BrokerClasspathTest {

    private static final String SERVER = "org/example/server/1.2/server-1.2.jar";
    private static final String LOGGING = "org/example/logging/0.9/logging-0.9.jar";
    /** "server jar" and its SHA-1, as Maven Central publishes one beside every jar. */
    private static final byte[] SERVER_BYTES = "server jar".getBytes(StandardCharsets.US_ASCII);
    private static final String SERVER_SHA1 = "30b938b11bb1cf842c4c53014e9849e50f597dba";

    @TempDir
    Path repo;

    private HttpServer remote;
    private final Map<String, byte[]> published = new ConcurrentHashMap<>();
    private final AtomicInteger requests = new AtomicInteger();

    @AfterEach
    void stopRemote() {
        if (remote != null) {
            remote.stop(0);
        }
    }

    @Test
    void theListingMadeAtBuildTimeIsReadAsPathsInARepository() {
        assertEquals(List.of(SERVER, LOGGING), BrokerClasspath.parse("REPO/" + SERVER + ":REPO/" + LOGGING + "\n"));
    }

    @Test
    void anEntryOutsideTheRepositoryIsABuildMistake() {
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> BrokerClasspath.parse("REPO/" + SERVER + ":/home/me/bench-core/target/classes"));

        assertEquals("a broker class path lists '/home/me/bench-core/target/classes', which is not in a Maven "
                + "repository (REPO/...)", e.getMessage());
    }

    @Test
    void aBrokerThatNoModuleListedIsABuildMistake() {
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> BrokerClasspath.named("nosuch"));

        assertEquals("META-INF/msgbench/brokers/nosuch.classpath is missing from the class path: the nosuch broker's "
                + "module (bench-nosuch-broker) was left out of the build", e.getMessage());
    }

    @Test
    void jarsInTheLocalRepositoryAreUsedAsTheyAre() throws IOException {
        store(SERVER);
        store(LOGGING);

        List<Path> jars = classpath(offline()).jars();

        assertEquals(List.of(repo.resolve(SERVER), repo.resolve(LOGGING)), jars);
    }

    @Test
    void theBrokersVersionIsThatOfItsArtifact() {
        BrokerClasspath classpath = classpath(offline());

        assertEquals("1.2", classpath.version("server"));
        assertEquals("0.9", classpath.version("logging"));
    }

    @Test
    void aMissingJarThatCannotBeDownloadedIsOneLineNamingItAndWhatToDo() throws IOException {
        store(LOGGING);
        URI offline = offline();

        assertCannotDownload(offline, "no connection");
    }

    @Test
    void aJarTheRemoteDoesNotHaveIsNamedWithItsAddress() throws IOException {
        store(LOGGING);
        URI remoteUri = serve();

        assertCannotDownload(remoteUri, "IOException: HTTP 404 for " + remoteUri + SERVER);
    }

    private void assertCannotDownload(URI remoteUri, String reason) throws IOException {
        UserError e = assertThrows(UserError.class, () -> classpath(remoteUri).jars());

        assertEquals("the demo broker needs " + SERVER + ", which is not in " + repo + " and cannot be downloaded "
                + "from " + remoteUri + " (" + reason + "); connect to the internet once, or build the suite online "
                + "(mvn -B package -DskipTests), which fetches it", e.getMessage());
        assertEquals(List.of(repo.resolve(LOGGING)), filesIn(repo), "nothing half downloaded is left");
    }

    @Test
    void aMissingJarIsDownloadedIntoTheLocalRepositoryOnce() throws IOException {
        store(LOGGING);
        published.put(SERVER, SERVER_BYTES);
        published.put(SERVER + ".sha1", (SERVER_SHA1 + "  server-1.2.jar\n").getBytes(StandardCharsets.US_ASCII));
        BrokerClasspath classpath = classpath(serve());

        List<Path> jars = classpath.jars();
        int afterFirst = requests.get();
        classpath.jars();

        assertEquals(List.of(repo.resolve(SERVER), repo.resolve(LOGGING)), jars);
        assertEquals("server jar", Files.readString(repo.resolve(SERVER)));
        assertEquals(2, afterFirst, "the jar and its checksum");
        assertEquals(afterFirst, requests.get(), "nothing more once it is there");
    }

    @Test
    void aDownloadThatDoesNotMatchItsChecksumIsRefusedAndNotKept() throws IOException {
        store(LOGGING);
        published.put(SERVER, "tampered".getBytes(StandardCharsets.US_ASCII));
        published.put(SERVER + ".sha1", SERVER_SHA1.getBytes(StandardCharsets.US_ASCII));
        URI remoteUri = serve();

        UserError e = assertThrows(UserError.class, () -> classpath(remoteUri).jars());

        assertEquals("the demo broker's jar " + SERVER + " downloaded from " + remoteUri + " has SHA-1 "
                + "93d6c93d9a76d27ec3462e7b57de5df1eb45bc7b, not " + SERVER_SHA1 + " as published; try again, or "
                + "build the suite online (mvn -B package -DskipTests), which fetches it into " + repo, e.getMessage());
        assertEquals(List.of(repo.resolve(LOGGING)), filesIn(repo));
    }

    private BrokerClasspath classpath(URI remoteUri) {
        return new BrokerClasspath("demo", List.of(SERVER, LOGGING), repo, remoteUri);
    }

    private void store(String artifact) throws IOException {
        Path jar = repo.resolve(artifact);
        Files.createDirectories(jar.getParent());
        Files.writeString(jar, "a jar");
    }

    /** A repository on a loopback port that nothing listens on: what a machine without a network gets. */
    private static URI offline() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return URI.create("http://127.0.0.1:" + socket.getLocalPort() + "/maven2/");
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private URI serve() throws IOException {
        remote = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        remote.createContext("/maven2/", exchange -> {
            requests.incrementAndGet();
            byte[] body = published.get(exchange.getRequestURI().getPath().substring("/maven2/".length()));
            exchange.sendResponseHeaders(body == null ? 404 : 200, body == null ? -1 : body.length);
            if (body != null) {
                exchange.getResponseBody().write(body);
            }
            exchange.close();
        });
        remote.start();
        return URI.create("http://127.0.0.1:" + remote.getAddress().getPort() + "/maven2/");
    }

    private static List<Path> filesIn(Path dir) throws IOException {
        try (Stream<Path> files = Files.walk(dir)) {
            return files.filter(Files::isRegularFile).sorted().toList();
        }
    }
}
