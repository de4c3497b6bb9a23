package dev.msgbench.core.fault;

import java.time.Duration;
import java.util.List;
import java.util.OptionalInt;

import dev.msgbench.core.broker.LocalBroker;
import dev.msgbench.core.broker.Signal;
import dev.msgbench.core.disk.PowerCut;
import dev.msgbench.core.driver.MessagingSystem;
import dev.msgbench.core.net.IsolatedHosts;
import dev.msgbench.core.net.Topology;

/**
 * The nodes of a local broker as a fault target: the broker does what is done to a node, and the
 * system under test names the node that leads the run's data.
 */
public final class LocalBrokerFaultTarget implements FaultTarget {

    private final LocalBroker broker;
    private final MessagingSystem system;
    private final IsolatedHosts hosts;

    public LocalBrokerFaultTarget(LocalBroker broker, MessagingSystem system) {
        this(broker, system, null);
    }

    /** @param hosts where the nodes run (--isolate), or null when they share loopback */
    public LocalBrokerFaultTarget(LocalBroker broker, MessagingSystem system, IsolatedHosts hosts) {
        this.broker = broker;
        this.system = system;
        this.hosts = hosts;
    }

    @Override
    public int nodeCount() {
        return broker.nodeCount();
    }

    @Override
    public List<Integer> diskNodes() {
        return broker.diskNodes();
    }

    @Override
    public OptionalInt leaderNode() throws Exception {
        return system.leaderNode();
    }

    @Override
    public OptionalInt coordinatorNode() throws Exception {
        return system.coordinatorNode();
    }

    @Override
    public void signal(int node, Signal signal) {
        broker.signal(node, signal);
    }

    @Override
    public void killNode(int node) {
        broker.killNode(node);
    }

    @Override
    public void stopNode(int node) {
        broker.stopNode(node);
    }

    /** Cuts the link of the node's host, which other nodes may share (a Pulsar cluster's broker and bookie). */
    @Override
    public void partition(int node, boolean cut) {
        if (hosts == null) {
            FaultTarget.super.partition(node, cut);
            return;
        }
        Topology.setLink(hosts, broker.hostOf(node), !cut);
    }

    @Override
    public void restartNode(int node, Duration timeout) {
        broker.restartNode(node, timeout);
    }

    @Override
    public void restartNodes(List<Integer> nodes, Duration timeout) {
        broker.restartNodes(nodes, timeout);
    }

    @Override
    public PowerCut powerCut(int node) {
        return broker.powerCut(node);
    }

    @Override
    public void slowDisk(int node, Duration extra) {
        broker.slowDisk(node, extra);
    }

    @Override
    public void healDisk(int node) {
        broker.healDisk(node);
    }

    @Override
    public void fillDisk(int node) {
        broker.fillDisk(node);
    }

    @Override
    public void freeDisk(int node) {
        broker.freeDisk(node);
    }
}
