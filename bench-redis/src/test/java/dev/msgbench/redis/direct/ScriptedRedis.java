package dev.msgbench.redis.direct;

import java.io.IOException;
import java.net.ProtocolException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import dev.msgbench.core.testing.Cuts;
import dev.msgbench.core.testing.FakeSocket;
import dev.msgbench.redis.resp.RespConnection;
import dev.msgbench.redis.resp.RespReader;

/**
 * Plays a Redis server on a {@link FakeSocket}: reads every command the client writes, answers as
 * a script says, and cuts what it sends so that replies straddle reads: every other batch a byte
 * a read, the others once at a place that moves with each batch.
 */
final class ScriptedRedis implements AutoCloseable {

    /** Ends an answer where the server hangs up, after what comes before it. */
    static final String HANG_UP = "HANG UP";

    /** The answer to the {@code index}th command (from 0), or null for none. */
    interface Script {
        String answer(int index, List<String> command);
    }

    private final FakeSocket socket = new FakeSocket();
    private final List<List<String>> commands = Collections.synchronizedList(new ArrayList<>());
    private final Thread thread;
    /** What the client wrote that is not RESP, if it did. */
    private volatile ProtocolException malformed;

    /** @param batch how many commands' answers go out together, so that several straddle one read */
    ScriptedRedis(int batch, Script script) {
        thread = new Thread(() -> serve(batch, script), "scripted-redis");
        thread.setDaemon(true);
        thread.start();
    }

    /** A connection to this server, named {@code name}, with no handshake. */
    RespConnection connection(String name) {
        return new RespConnection(name, socket.clientIn(), socket.clientOut(), socket);
    }

    /** Sends {@code pushes} unasked, cut before each of {@code cuts}. */
    void send(String pushes, int... cuts) {
        socket.toClient().write(pushes.getBytes(StandardCharsets.ISO_8859_1), cuts);
    }

    void hangUp() {
        socket.hangUp();
    }

    /** The commands read so far, each as its arguments. */
    List<List<String>> commands() {
        synchronized (commands) {
            return new ArrayList<>(commands);
        }
    }

    private void serve(int batch, Script script) {
        RespReader in = new RespReader(socket.serverIn(), "scripted-redis");
        StringBuilder pending = new StringBuilder();
        try {
            for (int i = 0; ; i++) {
                List<String> command = new ArrayList<>();
                for (Object arg : (List<?>) in.readValue()) {
                    command.add(new String((byte[]) arg, StandardCharsets.ISO_8859_1));
                }
                commands.add(command);
                String answer = script.answer(i, command);
                if (answer != null && answer.endsWith(HANG_UP)) {
                    pending.append(answer, 0, answer.length() - HANG_UP.length());
                    send(pending, i);
                    socket.hangUp();
                    return;
                }
                if (answer != null) {
                    pending.append(answer);
                }
                if ((i + 1) % batch == 0) {
                    send(pending, i / batch);
                }
            }
        } catch (ProtocolException e) {
            malformed = e;
        } catch (IOException e) {
            // the client closed its end: the script is over
        }
    }

    private void send(StringBuilder pending, int round) {
        if (pending.length() == 0) {
            return;
        }
        byte[] bytes = pending.toString().getBytes(StandardCharsets.ISO_8859_1);
        pending.setLength(0);
        socket.toClient().write(bytes, round % 2 == 0 ? Cuts.singleBytes(bytes.length) : new int[] {round % bytes.length});
    }

    @Override
    public void close() throws InterruptedException {
        socket.close();
        thread.join(5_000);
        if (malformed != null) {
            throw new AssertionError("the client wrote what is not RESP: " + malformed.getMessage(), malformed);
        }
    }
}
