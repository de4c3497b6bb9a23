package dev.msgbench.pulsar.broker;

import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

import dev.msgbench.core.net.Topology;

/**
 * The files of a local Pulsar cluster (ZooKeeper, three bookies, brokers), written by the suite for
 * every start, since Pulsar's jars carry none; each is kept in its node's folder for the record.
 *
 * <p>Our settings are the standalone's ({@link StandaloneConf}: journalSyncData=true above all) with
 * the quorums of three bookies: every ledger on all three (ensemble and write quorum 3), an entry
 * acknowledged once two have it (ack quorum 2, Pulsar's broker.conf default) unless --acks says
 * otherwise; the brokers' ZooKeeper sessions expire after 5 s, so that a killed broker's topics
 * move to another within seconds. --broker-prop goes into the brokers' and the bookies' files
 * alike, after ours, so that it wins; each ignores the other's keys.
 */
final class ClusterConf {

    /** The cluster's name in the metadata store: every broker registers under it. */
    static final String CLUSTER = "msgbench";
    static final String QUORUM = "3";
    static final String SESSION_TIMEOUT = "metadataStoreSessionTimeoutMillis";

    private ClusterConf() {
    }

    /** Ours, then {@code props} (--broker-prop), without ports and paths. */
    static Map<String, String> effective(Map<String, String> props) {
        return effective(Map.of(), props);
    }

    /**
     * Ours, then {@code security}'s ({@link SecuredBrokerConf#recorded}, the brokers' alone), then
     * {@code props}: what the result records.
     */
    static Map<String, String> effective(Map<String, String> security, Map<String, String> props) {
        Map<String, String> all = new LinkedHashMap<>(StandaloneConf.DEFAULTS);
        all.put(StandaloneConf.ENSEMBLE, QUORUM);
        all.put(StandaloneConf.WRITE_QUORUM, QUORUM);
        all.put(StandaloneConf.ACK_QUORUM, "2");
        // a killed broker's topics move once its ZooKeeper session expires: 5 s instead of Pulsar's 30 s
        all.put(SESSION_TIMEOUT, "5000");
        all.putAll(security);
        all.putAll(props);
        return Collections.unmodifiableMap(all);
    }

    /**
     * A standalone ZooKeeper on {@code address} (loopback, or host 1's under --isolate), without its
     * admin server (port 8080 by default) or its JMX.
     */
    static void writeZooKeeper(Path file, Path dataDir, String address, int port) {
        Map<String, String> conf = new LinkedHashMap<>();
        conf.put("tickTime", "2000");
        conf.put("dataDir", dataDir.toString());
        conf.put("clientPort", Integer.toString(port));
        conf.put("clientPortAddress", address);
        conf.put("admin.enableServer", "false");
        conf.put("maxClientCnxns", "0");
        StandaloneConf.writeFile(file, "ZooKeeper", conf);
    }

    /**
     * One broker: its address, ports and the metadata store, then {@link #effective}.
     *
     * @param address   what it binds (binary port and web service) and advertises: loopback, or its
     *                  host's under --isolate
     * @param zooKeeper HOST:PORT of the metadata store
     * @param security a secured broker's settings ({@link SecuredBrokerConf#settings}), which leave
     *                 the plain ports empty; empty for an open one
     */
    static void writeBroker(Path file, String address, String zooKeeper, int brokerPort, int webPort,
                            Map<String, String> security, Map<String, String> props) {
        Map<String, String> conf = new LinkedHashMap<>();
        conf.put("clusterName", CLUSTER);
        conf.put("metadataStoreUrl", "zk:" + zooKeeper);
        conf.put("configurationMetadataStoreUrl", "zk:" + zooKeeper);
        conf.put("bindAddress", address);
        conf.put("advertisedAddress", address);
        conf.put("brokerServicePort", Integer.toString(brokerPort));
        conf.put("webServicePort", Integer.toString(webPort));
        conf.putAll(security);
        conf.putAll(effective(props));
        StandaloneConf.writeFile(file, "a Pulsar broker", conf);
    }

    /**
     * One bookie: its address, port, directories and the metadata store, then {@link #effective}.
     *
     * @param address   what it advertises (its id in the metadata store, which the brokers dial):
     *                  loopback, or its host's under --isolate
     * @param isolated  whether it runs in a host of its own (--isolate), where it binds {@code address}
     *                  alone instead of every address
     * @param zooKeeper HOST:PORT of the metadata store
     */
    static void writeBookie(Path file, String address, boolean isolated, String zooKeeper, int bookiePort,
                            Path dataDir, Map<String, String> props) {
        Map<String, String> conf = new LinkedHashMap<>();
        conf.put("bookiePort", Integer.toString(bookiePort));
        conf.put("advertisedAddress", address);
        if (isolated) {
            // a bookie binds every address unless it has a listening interface; given one, it binds its
            // advertised address (BookieNettyServer), which is on the host's link
            conf.put("listeningInterface", Topology.HOST_LINK);
        }
        conf.put("metadataServiceUri", "zk://" + zooKeeper + "/ledgers");
        conf.put("journalDirectories", dataDir.resolve("journal").toString());
        conf.put("ledgerDirectories", dataDir.resolve("ledgers").toString());
        // its HTTP server and Prometheus endpoint would take port 8000 on every bookie
        conf.put("httpServerEnabled", "false");
        conf.putAll(effective(props));
        StandaloneConf.writeFile(file, "a bookie", conf);
    }
}
