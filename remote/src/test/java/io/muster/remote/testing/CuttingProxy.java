package io.muster.remote.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A TCP relay on a free loopback port in front of another port (an {@link Sshd}), which cuts every open connection
 * on demand, or once a given number of bytes has passed: a network that drops mid-upload. New connections are
 * relayed again after a cut, as when the network comes back. It can also {@link #stall()}: a network gone silent.
 */
public final class CuttingProxy implements AutoCloseable {
    private static final int CHUNK = 8192;

    private final ServerSocket server;
    private final int target;
    private final List<Socket> open = new CopyOnWriteArrayList<>();
    private final AtomicLong passed = new AtomicLong();
    private volatile long cutAt = Long.MAX_VALUE;
    private volatile boolean stalled;

    public CuttingProxy(int target) throws IOException {
        this.target = target;
        this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread.ofVirtual().name("cutting proxy").start(this::accept);
    }

    public int port() {
        return server.getLocalPort();
    }

    /** Cuts every open connection once {@code bytes} more have passed, in either direction. */
    public void cutAfter(long bytes) {
        cutAt = passed.get() + bytes;
    }

    /**
     * Lets nothing more through, in either direction, and closes nothing: a network gone silent, which only
     * keepalives can tell from an idle one.
     */
    public void stall() {
        stalled = true;
    }

    /** Cuts every open connection now (abruptly: a reset, not a clean close). */
    public void cutAll() {
        cutAt = Long.MAX_VALUE;
        for (Socket socket : open) abort(socket);
        open.clear();
    }

    private void accept() {
        while (!server.isClosed()) {
            try {
                Socket client = server.accept();
                Socket upstream = new Socket(InetAddress.getLoopbackAddress(), target);
                open.add(client);
                open.add(upstream);
                Thread.ofVirtual().start(() -> relay(client, upstream));
                Thread.ofVirtual().start(() -> relay(upstream, client));
            } catch (IOException e) {
                // the proxy closed, or the target refused: that client sees its connection end
            }
        }
    }

    private void relay(Socket from, Socket to) {
        byte[] chunk = new byte[CHUNK];
        try {
            InputStream in = from.getInputStream();
            OutputStream out = to.getOutputStream();
            for (int n = in.read(chunk); n >= 0; n = in.read(chunk)) {
                if (stalled) continue;
                out.write(chunk, 0, n);
                if (passed.addAndGet(n) >= cutAt) cutAll();
            }
        } catch (IOException e) {
            // one side closed or was cut
        } finally {
            abort(from);
            abort(to);
        }
    }

    private static void abort(Socket socket) {
        try {
            socket.setSoLinger(true, 0);
            socket.close();
        } catch (IOException e) {
            // already closed
        }
    }

    @Override
    public void close() throws IOException {
        server.close();
        cutAll();
    }
}
