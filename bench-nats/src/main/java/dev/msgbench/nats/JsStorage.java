package dev.msgbench.nats;

import java.util.Locale;

import io.nats.client.api.StorageType;

/** Where a JetStream stream keeps its messages (E1: NATS Streaming's memory and file stores). */
public enum JsStorage {
    /** Files in the server's store_dir, synced to disk as jetstream.sync_interval says: JetStream's default. */
    FILE(StorageType.File),
    /** The server's memory only: gone when the server stops. */
    MEMORY(StorageType.Memory);

    private final StorageType type;

    JsStorage(StorageType type) {
        this.type = type;
    }

    StorageType type() {
        return type;
    }

    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
