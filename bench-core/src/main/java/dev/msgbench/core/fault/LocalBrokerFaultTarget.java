package dev.msgbench.core.fault;

import java.time.Duration;
import java.util.OptionalInt;

import dev.msgbench.core.broker.LocalBroker;
import dev.msgbench.core.broker.Signal;

/**
 * The nodes of a local broker as a fault target. Pausing works on every launcher (signals);
 * leader lookup, kill, stop and restart come with the launchers' node control.
 */
public final class LocalBrokerFaultTarget implements FaultTarget {

    private final LocalBroker broker;

    public LocalBrokerFaultTarget(LocalBroker broker) {
        this.broker = broker;
    }

    @Override
    public int nodeCount() {
        return broker.nodeCount();
    }

    @Override
    public OptionalInt leaderNode() {
        // a one-node broker never asks: the injector takes node 1 for every selector
        throw new UnsupportedOperationException("node=leader on a cluster arrives with the brokers branch"); // MERGE: brokers
    }

    @Override
    public void signal(int node, Signal signal) {
        broker.signal(node, signal);
    }

    @Override
    public void killNode(int node) {
        throw new UnsupportedOperationException("kill arrives with the brokers branch"); // MERGE: brokers
    }

    @Override
    public void stopNode(int node) {
        throw new UnsupportedOperationException("restart arrives with the brokers branch"); // MERGE: brokers
    }

    @Override
    public void restartNode(int node, Duration timeout) {
        throw new UnsupportedOperationException("restart arrives with the brokers branch"); // MERGE: brokers
    }
}
