package dev.msgbench.pulsar.broker;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The standalone.conf the suite writes for every start: Pulsar's jars carry none, so the suite
 * says every setting it depends on, and the file is kept beside the data for the record.
 *
 * <p>The broker ({@code ServiceConfiguration}) and the bookie ({@code ServerConfiguration}) both
 * read this one file, so a bookie setting such as journalSyncData goes here too.
 *
 * <p>journalSyncData is true: the bookie fsyncs its journal before it acknowledges an entry, its
 * own default in bookkeeper.conf, so an acknowledged message survives a power cut. Pulsar's
 * shipped standalone.conf turns it off; {@code --broker-prop journalSyncData=false} is that
 * experiment.
 */
public final class StandaloneConf {

    /** The bookie's fsync of its journal, as the result records it. */
    public static final String JOURNAL_SYNC_DATA = "journalSyncData";
    /** Ensemble, write and ack quorum of new ledgers where a namespace sets none. */
    public static final String ENSEMBLE = "managedLedgerDefaultEnsembleSize";
    public static final String WRITE_QUORUM = "managedLedgerDefaultWriteQuorum";
    public static final String ACK_QUORUM = "managedLedgerDefaultAckQuorum";

    /** Settings msgbench gives every standalone; --broker-prop comes after them and wins. */
    static final Map<String, String> DEFAULTS = defaults();

    private StandaloneConf() {
    }

    /** Ours, then {@code props} (--broker-prop), without ports and paths. */
    public static Map<String, String> effective(Map<String, String> props) {
        return effective(Map.of(), props);
    }

    /** Ours, then {@code security}'s ({@link SecuredBrokerConf#recorded}), then {@code props}. */
    static Map<String, String> effective(Map<String, String> security, Map<String, String> props) {
        Map<String, String> all = new LinkedHashMap<>(DEFAULTS);
        all.putAll(security);
        all.putAll(props);
        return Collections.unmodifiableMap(all);
    }

    /**
     * The file of one start: its ports and address first, then {@link #effective}.
     *
     * @param address  the address the broker binds and advertises, and the bookie advertises
     * @param security a secured standalone's settings ({@link SecuredBrokerConf#settings}), which
     *                 leave the plain ports empty; empty for an open one
     */
    static void write(Path file, String address, int brokerPort, int webPort, Map<String, String> security,
                      Map<String, String> props) {
        Map<String, String> all = new LinkedHashMap<>();
        all.put("clusterName", "standalone");
        all.put("bindAddress", address);
        all.put("advertisedAddress", address);
        all.put("brokerServicePort", Integer.toString(brokerPort));
        all.put("webServicePort", Integer.toString(webPort));
        all.putAll(security);
        all.putAll(effective(props));
        writeFile(file, "pulsar standalone", all);
    }

    /** KEY=VALUE lines, as every Pulsar, BookKeeper and ZooKeeper file reads them, under a line naming the writer. */
    static void writeFile(Path file, String what, Map<String, String> conf) {
        StringBuilder text = new StringBuilder("# written by msgbench for one start of " + what + "\n");
        conf.forEach((key, value) -> text.append(key).append('=').append(value).append('\n'));
        try {
            Files.writeString(file, text, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }

    private static Map<String, String> defaults() {
        Map<String, String> conf = new LinkedHashMap<>();
        conf.put(JOURNAL_SYNC_DATA, "true");
        // one bookie: every ledger on it, as Pulsar's standalone.conf has them
        conf.put(ENSEMBLE, "1");
        conf.put(WRITE_QUORUM, "1");
        conf.put(ACK_QUORUM, "1");
        // without --isolate a loopback address is the bookie's only one, which a bookie refuses unless allowed
        conf.put("allowLoopback", "true");
        conf.put("functionsWorkerEnabled", "false");
        return Collections.unmodifiableMap(conf);
    }
}
