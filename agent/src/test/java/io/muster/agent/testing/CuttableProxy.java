package io.muster.agent.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A TCP forwarder on a loopback port to another, whose connections a test can cut (and refuse until
 * restored) while the other side stays up: an agent that loses etcd while etcd goes on without it.
 */
public final class CuttableProxy implements AutoCloseable {
    private final ServerSocket server;
    private final int target;
    private final List<Socket> open = new CopyOnWriteArrayList<>();
    private volatile boolean cut;

    public CuttableProxy(int target) throws IOException {
        this.target = target;
        this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread.ofVirtual().name("proxy").start(this::accept);
    }

    /** The client URL to give in place of the target's. */
    public String endpoint() {
        return "http://127.0.0.1:" + server.getLocalPort();
    }

    /** Closes every connection, and refuses new ones until {@link #restore()}. */
    public void cut() throws IOException {
        cut = true;
        for (Socket s : open) s.close();
        open.clear();
    }

    public void restore() {
        cut = false;
    }

    private void accept() {
        while (!server.isClosed()) {
            try {
                Socket client = server.accept();
                if (cut) {
                    client.close();
                    continue;
                }
                Socket upstream = new Socket(InetAddress.getLoopbackAddress(), target);
                open.add(client);
                open.add(upstream);
                Thread.ofVirtual().start(() -> pump(client, upstream));
                Thread.ofVirtual().start(() -> pump(upstream, client));
            } catch (IOException e) {
                // closed, or the target refused: the client sees its connection end
            }
        }
    }

    private static void pump(Socket from, Socket to) {
        try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
            in.transferTo(out);
        } catch (IOException e) {
            // one side closed
        } finally {
            try {
                from.close();
                to.close();
            } catch (IOException ignored) {
                // already closed
            }
        }
    }

    @Override
    public void close() throws IOException {
        server.close();
        cut();
    }
}
