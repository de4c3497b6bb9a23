package dev.msgbench.redis.resp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.charset.StandardCharsets;
import java.util.List;

import org.junit.jupiter.api.Test;

class RespTest {

    private static String text(byte[] bytes) {
        return new String(bytes, StandardCharsets.UTF_8);
    }

    @Test
    void aCommandIsAnArrayOfBulkStringsCountedInBytes() {
        assertEquals("*3\r\n$3\r\nSET\r\n$1\r\nk\r\n$5\r\nv\u00e9\r\n\r\n", text(Resp.encode("SET", "k", "v\u00e9\r\n")));
        assertEquals("*1\r\n$0\r\n\r\n", text(Resp.encode("")));
    }

    @Test
    void aCommandPrefixStopsWhereTheLastArgumentsLengthGoes() {
        assertEquals("*3\r\n$7\r\nPUBLISH\r\n$5\r\nrun:0\r\n$",
                text(Resp.commandPrefix(Resp.ascii("PUBLISH"), Resp.ascii("run:0"))));
    }

    @Test
    void infoFieldsAreFoundByNameOnTheirOwnLine() {
        String info = "# Replication\r\nrole:master\r\nconnected_slaves:2\r\nslave0:ip=127.0.0.1,port=7001\r\n";

        assertEquals("master", Resp.infoField(info, "role"));
        assertEquals("2", Resp.infoField(info, "connected_slaves"));
        assertNull(Resp.infoField(info, "slave"));
        assertNull(Resp.infoField(info, "master_link_status"));
    }

    @Test
    void repliesAreDescribedInWordsForErrors() {
        assertEquals("a nil", Resp.describe(null));
        assertEquals("a simple string 'OK'", Resp.describe("OK"));
        assertEquals("an error 'ERR x'", Resp.describe(new RespError("ERR x")));
        assertEquals("an integer -3", Resp.describe(-3L));
        assertEquals("a bulk string of 2 bytes", Resp.describe(new byte[2]));
        assertEquals("an array of 2 elements", Resp.describe(List.of(1L, "a")));
        assertEquals("a simple string '" + "y".repeat(80) + "...'", Resp.describe("y".repeat(81)));
    }
}
