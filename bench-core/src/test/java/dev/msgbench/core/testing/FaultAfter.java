package dev.msgbench.core.testing;

import java.nio.file.Path;

import dev.msgbench.core.driver.AckListener;
import dev.msgbench.core.driver.ForwardingPublisher;
import dev.msgbench.core.driver.MessagingSystem;
import dev.msgbench.core.driver.Publisher;
import dev.msgbench.core.result.ResultFiles;
import dev.msgbench.core.result.RunResult;
import dev.msgbench.core.run.RunFailedException;

/**
 * A real system with a fault injected mid-run: once the first producer has published
 * {@code messages}, its thread runs {@code fault} (kill a connection, stop a server) before it
 * publishes the next. Everything else is the system's own.
 */
public final class FaultAfter extends ForwardingSystem {

    /** What breaks the system; may throw anything. */
    public interface Fault {
        void inject() throws Exception;
    }

    private final long messages;
    private final Fault fault;

    public FaultAfter(MessagingSystem system, long messages, Fault fault) {
        super(system);
        this.messages = messages;
        this.fault = fault;
    }

    /** How a run the fault failed ended: its one-line failure, and the partial results it wrote. */
    public record FailedRun(String failure, RunResult result) {
    }

    /** A throughput run of {@code messages} ({@link ShortRuns#throughput}) that the fault must fail. */
    public FailedRun failThroughput(Path dir, long messages, int sizeBytes, int producers, int consumers)
            throws Exception {
        RunResult completed;
        try {
            completed = ShortRuns.throughput(this, dir, messages, sizeBytes, producers, consumers);
        } catch (RunFailedException e) {
            return new FailedRun(e.getMessage(), ResultFiles.readResult(e.resultsDir()));
        }
        throw new AssertionError("the run was to fail, and ended " + completed.status() + " "
                + completed.warnings());
    }

    @Override
    public Publisher publisher(int streamId, AckListener acks) throws Exception {
        Publisher publisher = system.publisher(streamId, acks);
        return streamId != 0 ? publisher : new ForwardingPublisher(publisher) {
            private long published;

            @Override
            public void publish(byte[] message, long sequence, long intendedSendNanos) throws Exception {
                if (published++ == messages) {
                    fault.inject();
                }
                publisher.publish(message, sequence, intendedSendNanos);
            }
        };
    }
}
