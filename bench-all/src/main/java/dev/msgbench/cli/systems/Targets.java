package dev.msgbench.cli.systems;

import java.util.ArrayList;
import java.util.List;

/** The systems the command line knows, in the order --help lists them. */
public final class Targets {

    private Targets() {
    }

    /** Fresh instances: each also holds its flags, so each command line needs its own. */
    public static List<SystemTarget> create() {
        RedisTarget redis = new RedisTarget();
        NatsTarget nats = new NatsTarget();
        return List.of(new KafkaTarget(), nats, new JetStreamTarget(nats), new RabbitMqTarget(),
                redis, new RedisStreamsTarget(redis), new LoopbackTarget());
    }

    public static List<String> names() {
        List<String> names = new ArrayList<>();
        for (SystemTarget target : create()) {
            names.add(target.name());
        }
        return names;
    }

    /** The systems with a broker the suite can start (all but loopback). */
    public static List<String> brokerNames() {
        List<String> names = new ArrayList<>();
        for (SystemTarget target : create()) {
            if (target.needsBroker()) {
                names.add(target.name());
            }
        }
        return names;
    }
}
