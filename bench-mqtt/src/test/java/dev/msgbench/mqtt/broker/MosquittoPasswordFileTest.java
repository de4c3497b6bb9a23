package dev.msgbench.mqtt.broker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Base64;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.msgbench.core.UserError;
import dev.msgbench.core.security.BrokerSecurity;
import dev.msgbench.core.security.Secret;

class MosquittoPasswordFileTest {

    @TempDir
    Path dir;

    /** The line Mosquitto 2.0.11's `mosquitto_passwd -U` wrote for msgbench:Known-Pass-123, hashed again with its salt. */
    @Test
    void theHashIsMosquittoPasswdsForTheSameSalt() {
        String written = "msgbench:$7$101$43F+zHdpH8u+2lI0$ROiHPX3dSoOy/mpmyEi9FMPDe+HEWMXpg/MieXyXIBa1y6FRX/Q1mmKMvk"
                + "LrGiAEGaMDQR5qLfZAN9L55kIi7w==";
        byte[] salt = Base64.getDecoder().decode("43F+zHdpH8u+2lI0");

        assertEquals(written, MosquittoPasswordFile.line("msgbench", "Known-Pass-123", salt));
    }

    @Test
    void theFileIsOwnerOnlyWithARandomSaltAndNoPasswordInIt() throws Exception {
        Path file = dir.resolve("mosquitto.passwd");
        MosquittoPasswordFile.write(new BrokerSecurity("bench-user", Secret.of("file-Secret-5"), false), file);
        String first = Files.readString(file);
        MosquittoPasswordFile.write(new BrokerSecurity("bench-user", Secret.of("file-Secret-5"), false), file);

        assertTrue(first.matches("bench-user:\\$7\\$101\\$[A-Za-z0-9+/]{16}\\$[A-Za-z0-9+/]{86}==\n"), first);
        assertFalse(first.contains("file-Secret-5"));
        assertFalse(first.equals(Files.readString(file)), "a new salt on each write");
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
    }

    @Test
    void aUserNameWithAColonIsRefusedInOneLine() {
        assertEquals("--user: Mosquitto's password file takes a user name without ':' or line ends, got 'a:b'",
                assertThrows(UserError.class, () -> MosquittoPasswordFile.line("a:b", "pw", new byte[12]))
                        .getMessage());
    }
}
