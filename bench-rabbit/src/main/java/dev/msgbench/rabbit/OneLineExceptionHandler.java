package dev.msgbench.rabbit;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.rabbitmq.client.impl.DefaultExceptionHandler;

/**
 * amqp-client's own handling of asynchronous errors, printed as one line each. A node killed
 * mid-run breaks every connection to it, and the client logged each broken pipe and each failed
 * recovery step with its stack trace between the run's lines; what those failures cost is counted
 * in the results (send errors, losses, the fault's timeline), where the first one is named.
 */
final class OneLineExceptionHandler extends DefaultExceptionHandler {

    private static final Logger LOG = LoggerFactory.getLogger("amqp-client");

    @Override
    protected void log(String message, Throwable e) {
        LOG.warn("{}: {}", message, describe(e));
    }

    static String describe(Throwable e) {
        StringBuilder text = new StringBuilder(e.getClass().getSimpleName());
        if (e.getMessage() != null) {
            text.append(": ").append(e.getMessage());
        }
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        if (root != e && root.getMessage() != null && !text.toString().contains(root.getMessage())) {
            text.append(" (").append(root.getClass().getSimpleName()).append(": ").append(root.getMessage()).append(')');
        }
        return text.toString().replaceAll("\\s*\\R\\s*", " ");
    }
}
