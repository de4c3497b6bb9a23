package dev.msgbench.core.echo;

/** Closes an echo's parts in the order given, every one whatever the others do. */
public final class CloseAll {

    private CloseAll() {
    }

    /**
     * Closes each (nulls skipped); throws the first failure with the later ones suppressed in it,
     * once all were closed.
     */
    public static void inOrder(Iterable<? extends AutoCloseable> closeables) throws Exception {
        Exception first = null;
        for (AutoCloseable closeable : closeables) {
            if (closeable == null) {
                continue;
            }
            try {
                closeable.close();
            } catch (Exception e) {
                if (first == null) {
                    first = e;
                } else {
                    first.addSuppressed(e);
                }
            }
        }
        if (first != null) {
            throw first;
        }
    }
}
