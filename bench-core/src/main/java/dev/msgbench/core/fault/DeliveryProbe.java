package dev.msgbench.core.fault;

import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;

/** What the injector needs to see of the receiving side to notice a system that stays away. */
public interface DeliveryProbe {

    /** When the latest message arrived, on the run's clock. */
    long lastDeliveryNanos();

    /** Whether messages are due to arrive now (consumers running, producers still sending). */
    boolean expectingDelivery();

    static DeliveryProbe of(LongSupplier lastDeliveryNanos, BooleanSupplier expectingDelivery) {
        return new DeliveryProbe() {
            @Override
            public long lastDeliveryNanos() {
                return lastDeliveryNanos.getAsLong();
            }

            @Override
            public boolean expectingDelivery() {
                return expectingDelivery.getAsBoolean();
            }
        };
    }
}
