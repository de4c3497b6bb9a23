package dev.msgbench.core.net;

import dev.msgbench.core.Phrase;
import dev.msgbench.core.Setting;
import dev.msgbench.core.UserError;

/**
 * Picks the third octet of a 10.77.X.0/24 that this machine does not use: the hosts live in
 * namespaces of their own, but an address that also exists outside would confuse whoever reads
 * a packet capture or a log.
 */
final class Subnets {

    private Subnets() {
    }

    static int free() {
        String used = NetCommand.run("ip", "-4", "-o", "addr", "show") + NetCommand.run("ip", "-4", "route", "show");
        int start = (int) (ProcessHandle.current().pid() % 250) + 1;
        for (int i = 0; i < 250; i++) {
            int octet = (start + i - 1) % 250 + 1;
            if (!used.contains("10.77." + octet + ".")) {
                return octet;
            }
        }
        throw new UserError(Phrase.of("%s found no free subnet 10.77.X.0/24 on this machine", Setting.ISOLATE));
    }
}
