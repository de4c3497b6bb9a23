package dev.msgbench.core.driver;

/**
 * A publisher that hands every call to another: a wrapper overrides only what it adds (a first
 * send noticed, a fault injected) and forwards the rest, keyed publishes included, unchanged.
 */
public abstract class ForwardingPublisher implements Publisher {

    protected final Publisher publisher;

    protected ForwardingPublisher(Publisher publisher) {
        this.publisher = publisher;
    }

    @Override
    public void publish(byte[] message, long sequence, long intendedSendNanos) throws Exception {
        publisher.publish(message, sequence, intendedSendNanos);
    }

    @Override
    public void publish(byte[] message, int key, long sequence, long intendedSendNanos) throws Exception {
        publisher.publish(message, key, sequence, intendedSendNanos);
    }

    @Override
    public void outstandingLimit(int maxOutstanding) {
        publisher.outstandingLimit(maxOutstanding);
    }

    @Override
    public boolean takeOverReplies() {
        return publisher.takeOverReplies();
    }

    @Override
    public boolean makeProgress() throws Exception {
        return publisher.makeProgress();
    }

    @Override
    public void endOfBurst() throws Exception {
        publisher.endOfBurst();
    }

    @Override
    public void flush() throws Exception {
        publisher.flush();
    }

    @Override
    public void close() throws Exception {
        publisher.close();
    }
}
