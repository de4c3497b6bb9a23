package dev.msgbench.core.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import dev.msgbench.core.SettingNames;
import dev.msgbench.core.UserError;
import dev.msgbench.core.testing.TakesSeconds;

/** Runs as root, as --isolate does: it makes and removes real namespaces, links and a bridge. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class TopologyTest {

    private static final String PREFIX = NamespaceNames.prefixOf(ProcessHandle.current());

    @Test
    void buildsASwitchAndOneHostPerNodeAndTheClientThenRemovesThemAll() throws Exception {
        String rootLinks = NetCommand.run("ip", "-o", "link", "show");
        IsolatedHosts hosts;
        try (Topology topology = Topology.create(2, LinkShaping.NONE)) {
            hosts = topology.hosts();
            assertEquals(List.of(PREFIX + "c", PREFIX + "n1", PREFIX + "n2", PREFIX + "sw"), ours());
            String switchLinks = NetCommand.run("ip", "-n", hosts.switchNamespace(), "-o", "link", "show");
            for (String link : List.of("br0", "pc@", "p1@", "p2@")) {
                assertTrue(switchLinks.contains(" " + link), link + " in " + switchLinks);
            }
            assertTrue(NetCommand.run("ip", "-n", hosts.switchNamespace(), "-o", "link", "show", "master", "br0")
                    .contains(" p2@"));
            String nodeAddress = hosts.node(2).address();
            assertTrue(NetCommand.run("ip", "-n", hosts.node(2).namespace(), "-o", "addr", "show", "dev", "eth0")
                    .contains(nodeAddress + "/24"));
            assertEquals(hosts.subnet().replace("0/24", "100"), hosts.client().address());
            assertTrue(NetCommand.run("ip", "-n", hosts.client().namespace(), "-o", "link", "show", "lo")
                    .contains("UP"));
            // the client reaches node 2 across the bridge
            try (InNamespace receiver = InNamespace.java(hosts.node(2).namespace(), NetChildMains.ReceivesStamps.class,
                    nodeAddress, "7001")) {
                assertEquals("listening", receiver.readLine());
                try (InNamespace sender = InNamespace.java(hosts.client().namespace(), NetChildMains.SendsStamps.class,
                        nodeAddress, "7001")) {
                    sender.writeLine("go");
                    assertEquals(2, sender.readLine().split(" ").length);
                }
            }
        }
        assertEquals(List.of(), ours());
        assertEquals(rootLinks, NetCommand.run("ip", "-o", "link", "show"));
    }

    @Test
    void separateClientHostsEachHaveTheirOwnShapedLinkAndAddressAndGoWithTheRest() throws Exception {
        LinkShaping shaping = new LinkShaping(0, 0, 0, LinkShaping.parseRate("--link-rate", "1gbit"));
        Path descriptor = Files.createTempFile("msgbench-hosts", ".properties");
        try (Topology topology = Topology.withClients(3, 1, shaping)) {
            IsolatedHosts hosts = topology.hosts();
            assertEquals(List.of(PREFIX + "c1", PREFIX + "c2", PREFIX + "c3", PREFIX + "n1", PREFIX + "sw"), ours());
            String net = hosts.subnet().replace("0/24", "");
            assertEquals(List.of(net + "101", net + "102", net + "103"),
                    hosts.clients().stream().map(NetHost::address).collect(Collectors.toList()));
            assertEquals(hosts.clients().get(0), hosts.client());
            assertEquals("client 3", hosts.clients().get(2).role());
            for (NetHost client : hosts.clients()) {
                String qdiscs = NetCommand.run("tc", "-n", client.namespace(), "qdisc", "show", "dev", "eth0");
                assertTrue(qdiscs.startsWith("qdisc tbf "), client.namespace() + ": " + qdiscs);
                assertTrue(NetCommand.run("ip", "-n", client.namespace(), "-o", "addr", "show", "dev", "eth0")
                        .contains(client.address() + "/24"));
            }
            assertTrue(NetCommand.run("ip", "-n", hosts.switchNamespace(), "-o", "link", "show", "master", "br0")
                    .contains(" pc3@"));
            assertEquals("separate hosts (isolate): clients " + net + "101, " + net + "102, " + net + "103, broker node "
                    + net + "1 on " + hosts.subnet() + "; each link: " + shaping.describe(), hosts.describe(SettingNames.KEYS));
            hosts.write(descriptor);
            assertEquals(hosts, IsolatedHosts.read(descriptor));
            NetHost second = hosts.clients().get(1);
            try (InNamespace inside = InNamespace.java(second.namespace(), NetChildMains.PrintsIdentity.class)) {
                assertEquals(second.namespace(), inside.readLine(), "the namespace a load generator records");
                assertEquals(second.address(), inside.readLine(), "its only address apart from loopback");
            }
            // the last client reaches the node across the bridge
            try (InNamespace receiver = InNamespace.java(hosts.node(1).namespace(), NetChildMains.ReceivesStamps.class,
                    hosts.node(1).address(), "7003")) {
                assertEquals("listening", receiver.readLine());
                try (InNamespace sender = InNamespace.java(hosts.clients().get(2).namespace(),
                        NetChildMains.SendsStamps.class, hosts.node(1).address(), "7003")) {
                    sender.writeLine("go");
                    assertEquals(2, sender.readLine().split(" ").length);
                }
            }
        } finally {
            Files.delete(descriptor);
        }
        assertEquals(List.of(), ours());
    }

    @Test
    void clientHostsAreCountedFromOne() {
        UserError e = assertThrows(UserError.class, () -> Topology.withClients(0, 1, LinkShaping.NONE));
        assertEquals("clients takes 1 to 99 client hosts, got 0", e.getMessage());
        assertEquals(List.of(), ours());
    }

    @Test
    void closingTwiceRemovesOnce() {
        Topology topology = Topology.create(1, LinkShaping.NONE);
        topology.close();
        topology.close();
        assertEquals(List.of(), ours());
    }

    @Test
    @TakesSeconds
    void theNextTopologyReapsTheNamespacesOfAKilledOwner() throws Exception {
        String orphanSwitch;
        try (InNamespace owner = InNamespace.java(null, NetChildMains.OwnsTopology.class)) {
            orphanSwitch = owner.readLine();
            assertTrue(NamespaceReaper.list().contains(orphanSwitch), orphanSwitch);
            owner.kill();
        }
        String orphanPrefix = orphanSwitch.substring(0, orphanSwitch.length() - "sw".length());
        assertEquals(3, NamespaceReaper.list().stream().filter(n -> n.startsWith(orphanPrefix)).count());
        try (Topology topology = Topology.create(1, LinkShaping.NONE)) {
            assertEquals(List.of(), NamespaceReaper.list().stream().filter(n -> n.startsWith(orphanPrefix))
                    .collect(Collectors.toList()));
        }
    }

    @Test
    void aRateLimitIsATokenBucketOnEveryHostLink() {
        LinkShaping shaping = new LinkShaping(0, 0, 0, LinkShaping.parseRate("--link-rate", "1gbit"));
        try (Topology topology = Topology.create(1, shaping)) {
            for (NetHost host : List.of(topology.hosts().client(), topology.hosts().node(1))) {
                String qdiscs = NetCommand.run("tc", "-n", host.namespace(), "qdisc", "show", "dev", "eth0");
                assertTrue(qdiscs.startsWith("qdisc tbf ") && qdiscs.contains(" rate 1Gbit "), qdiscs);
            }
            assertEquals("rate 1000000000bit (tbf, burst 500000 B)", shaping.describe());
        }
        assertEquals(List.of(), ours());
    }

    /**
     * This machine's kernel has no netem; on one that has it, the delay shows in a round trip
     * between two hosts instead: each direction crosses one shaped link.
     */
    @Test
    void aLinkDelayNeedsNetemAndIsRefusedWithoutIt() throws Exception {
        LinkShaping delay = new LinkShaping(5_000_000, 0, 0, 0);
        if (!kernelHasNetem()) {
            UserError e = assertThrows(UserError.class, () -> Topology.create(1, delay));
            assertEquals("link-delay needs the kernel's netem qdisc (sch_netem), which this kernel does not have; "
                    + "run without link-delay, link-jitter and link-loss (link-rate works without netem)",
                    e.getMessage());
            assertEquals(List.of(), ours());
            return;
        }
        try (Topology topology = Topology.create(1, delay)) {
            IsolatedHosts hosts = topology.hosts();
            try (InNamespace receiver = InNamespace.java(hosts.node(1).namespace(), NetChildMains.ReceivesStamps.class,
                    hosts.node(1).address(), "7002")) {
                assertEquals("listening", receiver.readLine());
                try (InNamespace sender = InNamespace.java(hosts.client().namespace(), NetChildMains.SendsStamps.class,
                        hosts.node(1).address(), "7002")) {
                    sender.writeLine("go");
                    String[] stamps = sender.readLine().split(" ");
                    long roundTripNanos = Long.parseLong(stamps[1]) - Long.parseLong(stamps[0]);
                    assertTrue(roundTripNanos >= 10_000_000, "round trip " + roundTripNanos + " ns");
                }
            }
        }
    }

    @Test
    void partitioningANodeSetsItsSwitchPortDownAndBackUp() {
        try (Topology topology = Topology.create(1, LinkShaping.NONE)) {
            IsolatedHosts hosts = topology.hosts();
            Topology.setLink(hosts, 1, false);
            assertTrue(portState(hosts).contains("state DOWN"), portState(hosts));
            Topology.setLink(hosts, 1, true);
            assertFalse(portState(hosts).contains("state DOWN"), portState(hosts));
        }
    }

    private static String portState(IsolatedHosts hosts) {
        return NetCommand.run("ip", "-n", hosts.switchNamespace(), "-o", "link", "show", "p1");
    }

    /** Asked of a scratch namespace, apart from the code under test. */
    private static boolean kernelHasNetem() {
        String scratch = PREFIX + "probe";
        NetCommand.run("ip", "netns", "add", scratch);
        try {
            return NetCommand.attempt("tc", "-n", scratch, "qdisc", "add", "dev", "lo", "root", "netem", "delay", "1ms")
                    .ok();
        } finally {
            NetCommand.run("ip", "netns", "delete", scratch);
        }
    }

    private static List<String> ours() {
        return NamespaceReaper.list().stream().filter(n -> n.startsWith(PREFIX)).sorted().collect(Collectors.toList());
    }
}
