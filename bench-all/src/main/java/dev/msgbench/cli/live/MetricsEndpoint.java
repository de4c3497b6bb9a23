package dev.msgbench.cli.live;

import java.io.IOException;
import java.io.PrintStream;
import java.net.BindException;
import java.net.InetAddress;
import java.net.UnknownHostException;

import dev.msgbench.core.UserError;
import dev.msgbench.core.run.LiveFigures;
import io.prometheus.metrics.exporter.httpserver.HTTPServer;
import io.prometheus.metrics.model.registry.PrometheusRegistry;

/**
 * The HTTP endpoint of --metrics-port: one run's figures in the Prometheus and OpenMetrics text
 * formats at {@code /metrics}, from before the run starts until it has ended (closing it stops
 * the server).
 */
public final class MetricsEndpoint implements AutoCloseable {

    /** No endpoint: the run's figures go nowhere. */
    public static final MetricsEndpoint NONE = new MetricsEndpoint(null, null, LiveFigures.NONE);

    private final HTTPServer server;
    private final String url;
    private final LiveFigures figures;

    private MetricsEndpoint(HTTPServer server, String url, LiveFigures figures) {
        this.server = server;
        this.url = url;
        this.figures = figures;
    }

    /**
     * Starts serving and prints where.
     *
     * @param port 0 for a free port, printed
     * @throws UserError when the address cannot be bound (the port is in use, the address is not this machine's)
     */
    public static MetricsEndpoint start(String bindAddress, int port, PrintStream err) {
        InetAddress address;
        try {
            address = InetAddress.getByName(bindAddress);
        } catch (UnknownHostException e) {
            throw new UserError("--metrics-bind " + bindAddress + ": unknown host; give an address of this machine, "
                    + "e.g. 127.0.0.1 or 0.0.0.0");
        }
        PrometheusRegistry registry = new PrometheusRegistry();
        PrometheusFigures figures = new PrometheusFigures(registry);
        HTTPServer server;
        try {
            server = HTTPServer.builder().inetAddress(address).port(port).registry(registry).buildAndStart();
        } catch (BindException e) {
            throw new UserError("--metrics-port " + port + ": cannot listen on " + address.getHostAddress() + ":" + port
                    + " (" + e.getMessage() + "); give a free port, or 0 for any free one");
        } catch (IOException e) {
            throw new UserError("--metrics-port " + port + " --metrics-bind " + bindAddress + ": cannot listen ("
                    + e.getMessage() + ")");
        }
        String url = url(address, server.getPort());
        err.println("metrics at " + url + " (--metrics-port)");
        return new MetricsEndpoint(server, url, figures);
    }

    /** Where a scrape goes: {@code http://127.0.0.1:PORT/metrics}; null for {@link #NONE}. */
    public String url() {
        return url;
    }

    /** Who the run tells its figures. */
    public LiveFigures figures() {
        return figures;
    }

    @Override
    public void close() {
        if (server != null) {
            server.close();
        }
    }

    private static String url(InetAddress address, int port) {
        String host = address.getHostAddress();
        return "http://" + (host.contains(":") ? "[" + host + "]" : host) + ":" + port + "/metrics";
    }
}
