package dev.msgbench.core.payload;

/**
 * The messages of {@code --payload file:}: the files in turn, each from an array of its own that
 * already holds the file, so a message costs no copy; only its header is written over the first
 * bytes each time (which makes a copy per producer thread necessary: threads write headers at once).
 *
 * <p>Not thread-safe: one per producer thread.
 */
final class FileMessages implements MessageSource {

    private final byte[][] messages;
    private int next;

    FileMessages(PayloadContent.FromFiles files) {
        this.messages = files.contents().stream().map(byte[]::clone).toArray(byte[][]::new);
    }

    @Override
    public byte[] next() {
        byte[] message = messages[next];
        next = next + 1 == messages.length ? 0 : next + 1;
        return message;
    }
}
