package dev.msgbench.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import dev.msgbench.core.UserError;
import dev.msgbench.core.security.Secrets;

/** --client-config: Kafka's client properties file, whose secrets are hidden from everything printed. */
@Timeout(5)
class KafkaClientConfigTest {

    @TempDir
    Path dir;

    @Test
    void everyKeyIsReadAndTheValuesOfSecretKeysAreScrubbedFromPrintedText() throws Exception {
        Path file = dir.resolve("client.properties");
        Files.writeString(file, "security.protocol=SASL_SSL\n"
                + "sasl.jaas.config=ScramLoginModule required username=\"u\" password=\"config-jaas-7a1\";\n"
                + "ssl.key.password=config-keypw-9b2\n");

        Map<String, String> props = KafkaTarget.readClientConfig(file);

        assertEquals("SASL_SSL", props.get("security.protocol"));
        assertEquals("config-keypw-9b2", props.get("ssl.key.password"));
        assertEquals("key *** and jaas ***", Secrets.scrub("key config-keypw-9b2 and jaas " + props.get("sasl.jaas.config")));
        assertEquals("protocol SASL_SSL", Secrets.scrub("protocol SASL_SSL"));
    }

    @Test
    void aMissingFileIsOneLineNamingTheFlag() {
        Path missing = dir.resolve("none.properties");

        UserError e = assertThrows(UserError.class, () -> KafkaTarget.readClientConfig(missing));

        assertEquals("--client-config: no such file " + missing, e.getMessage());
    }
}
