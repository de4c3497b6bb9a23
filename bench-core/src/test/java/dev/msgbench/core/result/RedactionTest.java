package dev.msgbench.core.result;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

class RedactionTest {

    @Test
    void passwordsInUrlsAreHiddenButUserHostAndPortStay() {
        assertEquals("amqp://bench:***@broker-1:5672/vhost", Redaction.redactUrl("amqp://bench:s3cret@broker-1:5672/vhost"));
        assertEquals("nats://a:***@h1:4222,nats://b:***@h2:4222", Redaction.redactUrl("nats://a:x@h1:4222,nats://b:y@h2:4222"));
        assertEquals("127.0.0.1:9092", Redaction.redactUrl("127.0.0.1:9092"));
        assertEquals("redis://host:6379", Redaction.redactUrl("redis://host:6379"));
    }

    @Test
    void settingsNamedLikeSecretsAreHiddenAtAnyDepth() {
        Map<String, Object> settings = Map.of(
                "url", "amqp://u:p@h",
                "producerProps", Map.of("sasl.jaas.config", "org...PlainLoginModule required password=\"x\";", "linger.ms", "5"),
                "list", List.of("redis://:pw@h:1"));
        Map<String, Object> out = Redaction.redact(settings);
        assertEquals("amqp://u:***@h", out.get("url"));
        assertEquals(Map.of("sasl.jaas.config", "***", "linger.ms", "5"), out.get("producerProps"));
        assertEquals(List.of("redis://:***@h:1"), out.get("list"));
    }
}
