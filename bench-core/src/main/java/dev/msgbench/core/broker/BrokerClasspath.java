package dev.msgbench.core.broker;

import dev.msgbench.core.UserError;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;

/**
 * The jars of a broker that runs in a child JVM from a class path of its own, never from the
 * runner's (Kafka's Scala server; Pulsar, which brings its own netty), so that bench-all.jar
 * carries only the clients.
 *
 * <p>A broker module ({@code bench-kafka-broker}) lists the jars at build time: the parent pom's
 * {@code broker-classpath} execution of maven-dependency-plugin writes its provided dependencies,
 * as Maven resolved them, to {@code META-INF/msgbench/brokers/NAME.classpath} as paths in a Maven
 * repository ({@code REPO/org/apache/kafka/kafka_2.13/4.3.1/kafka_2.13-4.3.1.jar:REPO/...}). Here
 * the paths are found in the local Maven repository, and a missing jar is downloaded from Maven
 * Central into it once, as Maven would have.
 *
 * <p>Why a list of Maven artifacts rather than the jars copied next to bench-all.jar at package
 * time: building the suite puts every listed jar in the local repository, so the broker finds its
 * jars wherever the runner's classes come from, with nothing copied: {@code java -jar
 * bench-all/target/bench-all.jar} after {@code mvn package} (scripts/quickstart and
 * scripts/compare-native too), and the surefire tests of every module, whose class paths have no
 * bench-all/target. bench-all.jar taken alone to another machine (a container image) fetches
 * them on the first broker start instead of failing.
 */
public final class BrokerClasspath {

    /** Where a listed jar is downloaded from when the local repository lacks it. */
    public static final URI MAVEN_CENTRAL = URI.create("https://repo1.maven.org/maven2/");
    /** The parent pom's localRepoProperty: what stands for the repository in a listed path. */
    private static final String LISTED_REPO = "REPO/";
    private static final String RESOURCE_DIR = "META-INF/msgbench/brokers/";
    private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(10);
    /** Per jar: Kafka's largest (scala-library) is 6 MB; this allows a slow link, not a stalled one forever. */
    private static final Duration DOWNLOAD_TIMEOUT = Duration.ofMinutes(5);

    private final String broker;
    private final List<String> artifacts;
    private final Path localRepo;
    private final URI remote;

    /**
     * @param broker    how messages name the broker, e.g. "kafka"
     * @param artifacts paths in a Maven repository, e.g. {@code org/slf4j/slf4j-api/1.7.36/slf4j-api-1.7.36.jar}
     * @param localRepo where they are looked for and downloaded to
     * @param remote    the repository they are downloaded from, ending with '/'
     */
    BrokerClasspath(String broker, List<String> artifacts, Path localRepo, URI remote) {
        this.broker = broker;
        this.artifacts = List.copyOf(artifacts);
        this.localRepo = localRepo;
        this.remote = remote;
    }

    /**
     * The class path that broker module built for {@code broker}, resolved in the local Maven
     * repository: {@code -Dmaven.repo.local} when this JVM was given it (the surefire tests are),
     * else ~/.m2/repository.
     *
     * @throws IllegalStateException when no broker module listed {@code broker}: a build that left it out
     */
    public static BrokerClasspath named(String broker) {
        String resource = RESOURCE_DIR + broker + ".classpath";
        try (InputStream in = BrokerClasspath.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException(resource + " is missing from the class path: the " + broker
                        + " broker's module (bench-" + broker + "-broker) was left out of the build");
            }
            return new BrokerClasspath(broker, parse(new String(in.readAllBytes(), StandardCharsets.UTF_8)),
                    defaultLocalRepo(), MAVEN_CENTRAL);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + resource, e);
        }
    }

    /** The listing's paths without their {@value #LISTED_REPO} prefix. */
    static List<String> parse(String listing) {
        List<String> paths = new ArrayList<>();
        for (String entry : listing.strip().split(":")) {
            if (!entry.startsWith(LISTED_REPO)) {
                throw new IllegalStateException("a broker class path lists '" + entry + "', which is not in a "
                        + "Maven repository (" + LISTED_REPO + "...)");
            }
            paths.add(entry.substring(LISTED_REPO.length()));
        }
        return paths;
    }

    static Path defaultLocalRepo() {
        String property = System.getProperty("maven.repo.local");
        if (property != null && !property.isBlank()) {
            return Path.of(property).toAbsolutePath();
        }
        return Path.of(System.getProperty("user.home"), ".m2", "repository");
    }

    /**
     * Every jar, in the listed order; those the local repository lacks are downloaded first.
     *
     * @throws UserError when a jar is missing and cannot be downloaded, on one line that names it
     */
    public List<Path> jars() {
        List<Path> jars = new ArrayList<>();
        List<String> missing = new ArrayList<>();
        for (String artifact : artifacts) {
            Path jar = localRepo.resolve(artifact);
            jars.add(jar);
            if (!Files.isRegularFile(jar)) {
                missing.add(artifact);
            }
        }
        if (!missing.isEmpty()) {
            download(missing);
        }
        return jars;
    }

    /**
     * The version of artifact {@code artifactId} on the class path, e.g. "4.3.1" for kafka_2.13:
     * the broker's version, as the results report it.
     */
    public String version(String artifactId) {
        for (String artifact : artifacts) {
            // groupId/as/path/ARTIFACT/VERSION/FILE
            String[] parts = artifact.split("/");
            if (parts.length >= 3 && parts[parts.length - 3].equals(artifactId)) {
                return parts[parts.length - 2];
            }
        }
        throw new IllegalArgumentException("the " + broker + " broker's class path has no " + artifactId + ": "
                + artifacts);
    }

    private void download(List<String> missing) {
        System.err.println("msgbench: downloading " + missing.size() + " jar(s) of the " + broker + " broker from "
                + remote + " into " + localRepo + " (once)");
        HttpClient http = HttpClient.newBuilder().connectTimeout(CONNECT_TIMEOUT)
                .followRedirects(HttpClient.Redirect.NORMAL).build();
        for (String artifact : missing) {
            downloadOne(http, artifact);
        }
    }

    /* Into a part file beside the jar, moved into place once its SHA-1 matches: another JVM may be fetching it too. */
    private void downloadOne(HttpClient http, String artifact) {
        Path jar = localRepo.resolve(artifact);
        Path part = jar.resolveSibling(jar.getFileName() + ".part-" + ProcessHandle.current().pid());
        try {
            Files.createDirectories(jar.getParent());
            fetch(http, artifact, HttpResponse.BodyHandlers.ofFile(part));
            String expected = fetch(http, artifact + ".sha1", HttpResponse.BodyHandlers.ofString()).body()
                    .strip().split("\\s+")[0].toLowerCase(Locale.ROOT);
            String actual = sha1(part);
            if (!actual.equals(expected)) {
                throw new UserError("the " + broker + " broker's jar " + artifact + " downloaded from " + remote
                        + " has SHA-1 " + actual + ", not " + expected + " as published; try again, or build the "
                        + "suite online (mvn -B package -DskipTests), which fetches it into " + localRepo);
            }
            Files.move(part, jar, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            // offline, HttpClient's ConnectException (refused, or no DNS) carries no message, or one that varies by JDK
            String reason = e instanceof ConnectException ? "no connection"
                    : e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage());
            throw new UserError("the " + broker + " broker needs " + artifact + ", which is not in " + localRepo
                    + " and cannot be downloaded from " + remote + " (" + reason + "); connect to the internet "
                    + "once, or build the suite online (mvn -B package -DskipTests), which fetches it", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new UserError("the download of the " + broker + " broker's jar " + artifact + " was interrupted", e);
        } finally {
            try {
                Files.deleteIfExists(part);
            } catch (IOException e) {
                // a part file left behind is overwritten by the next attempt of this pid, and harmless
            }
        }
    }

    private <T> HttpResponse<T> fetch(HttpClient http, String path, HttpResponse.BodyHandler<T> body)
            throws IOException, InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(remote.resolve(path)).timeout(DOWNLOAD_TIMEOUT).GET().build();
        HttpResponse<T> response = http.send(request, body);
        if (response.statusCode() != 200) {
            throw new IOException("HTTP " + response.statusCode() + " for " + request.uri());
        }
        return response;
    }

    private static String sha1(Path file) throws IOException {
        MessageDigest digest;
        try {
            digest = MessageDigest.getInstance("SHA-1");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-1", e);
        }
        try (InputStream in = Files.newInputStream(file)) {
            byte[] buffer = new byte[64 * 1024];
            for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
                digest.update(buffer, 0, n);
            }
        }
        return HexFormat.of().formatHex(digest.digest());
    }
}
