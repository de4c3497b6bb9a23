package dev.msgbench.core.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class UrlHostsTest {

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "127.0.0.1:9092,127.0.0.1:9094|127.0.0.1,127.0.0.1",
            "nats://a.example:4222,nats://b.example:4222|a.example,b.example",
            "amqp://user:se:cret@broker-1:5672/vhost|broker-1",
            "redis://[::1]:6379|::1",
            "broker-1|broker-1",
            "::1|::1",
    })
    void eachAddressGivesItsHostInAnySystemsSyntax(String url, String hosts) {
        assertEquals(List.of(hosts.split(",")), UrlHosts.of(url));
    }

    @ParameterizedTest
    @CsvSource({"127.0.0.1:4222", "localhost:9092", "'nats://127.0.0.2:4222'", "'redis://[::1]:6379'",
            "'198.51.100.7:9092,127.0.0.1:9092'"})
    void aLoopbackAddressIsThisMachine(String url) {
        assertTrue(UrlHosts.anyOnThisMachine(url), url);
    }

    @ParameterizedTest
    @CsvSource({"198.51.100.7:9092", "'nats://203.0.113.9:4222'"})
    void anotherMachinesAddressIsNotThisMachine(String url) {
        assertFalse(UrlHosts.anyOnThisMachine(url), url);
    }
}
