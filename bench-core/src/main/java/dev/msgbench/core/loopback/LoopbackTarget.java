package dev.msgbench.core.loopback;

import dev.msgbench.core.Phrase;
import dev.msgbench.core.Setting;
import dev.msgbench.core.UserError;
import dev.msgbench.core.broker.LocalBroker;
import dev.msgbench.core.driver.Acks;
import dev.msgbench.core.driver.MessagingSystem;
import dev.msgbench.core.loopback.LoopbackSystem;
import dev.msgbench.core.system.SystemTarget;

/**
 * No broker: messages go from producer threads to consumer threads inside this JVM. It measures
 * the load generator alone, the floor under every system's figures (see {@link LoopbackSystem}).
 */
public final class LoopbackTarget implements SystemTarget {

    public static final String NAME = "loopback";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public boolean needsBroker() {
        return false;
    }

    @Override
    public void validate(Acks acks, int localNodes) {
        if (acks != null) {
            throw new UserError(Phrase.of("%s: the loopback system has no broker to acknowledge anything; omit %s",
                    Setting.ACKS, Setting.ACKS));
        }
    }

    @Override
    public LocalBroker startLocalBroker(BrokerRequest request) {
        throw new IllegalStateException("the loopback system has no broker");
    }

    @Override
    public MessagingSystem connect(ConnectRequest request) {
        return new LoopbackSystem();
    }
}
