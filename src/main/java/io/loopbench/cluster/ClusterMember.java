package io.loopbench.cluster;

import org.jgroups.Address;
import org.jgroups.Event;
import org.jgroups.JChannel;
import org.jgroups.Message;
import org.jgroups.PhysicalAddress;
import org.jgroups.Receiver;
import org.jgroups.SuspectedException;
import org.jgroups.View;
import org.jgroups.blocks.MessageDispatcher;
import org.jgroups.blocks.RequestHandler;
import org.jgroups.blocks.Response;
import org.jgroups.stack.IpAddress;
import org.jgroups.util.NameCache;

import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * What the coordinator and an agent share: a channel on the cluster's stack ({@link ClusterStack}) with a request
 * dispatcher on it, connected on construction and released by {@link #close()}.
 *
 * <p>Threads: JGroups calls {@link #answer}, {@link #handle} and {@link #viewAccepted} on its own threads, possibly
 * several at once;
 * subclasses keep their state in concurrent structures. {@link #close()} may be called from any thread, once.
 */
abstract class ClusterMember implements AutoCloseable {

    protected final ClusterSettings settings;
    protected final JChannel channel;
    protected final MessageDispatcher dispatcher;

    ClusterMember(ClusterSettings settings, String memberName) throws Exception {
        this.settings = settings.checked();
        this.channel = ClusterStack.open(settings, memberName);
        // Asynchronous dispatching, so that a request may be answered later from another thread (a start barrier's
        // answer comes when the agent has started) without holding a JGroups thread meanwhile.
        this.dispatcher = new MessageDispatcher(channel, new RequestHandler() {
            @Override
            public Object handle(Message request) throws Exception {
                return answer(request);
            }

            @Override
            public void handle(Message request, Response response) throws Exception {
                ClusterMember.this.handle(request, response);
            }
        }).asyncDispatching(true);
        dispatcher.setReceiver(new Receiver() {
            @Override
            public void viewAccepted(View view) {
                ClusterMember.this.viewAccepted(view);
            }
        });
    }

    /** Joins the cluster; a member whose secret the others refuse gets a {@link SecurityException}. */
    protected void connect() throws Exception {
        try {
            channel.connect(settings.name());
        } catch (Exception e) {
            close();
            throw e;
        }
    }

    /** A request from another member; what it returns is the answer (null for one-way requests). */
    protected abstract Object answer(Message request) throws Exception;

    /**
     * A request with its response handle (null for one-way requests): answered here, at once, by {@link #answer};
     * a member that answers a kind of request later overrides this and calls {@code response.send} when it can.
     */
    protected void handle(Message request, Response response) throws Exception {
        Object a = answer(request);
        if (response != null) {
            response.send(a, false);
        }
    }

    /** The cluster's membership changed (a member joined, left or was found dead). */
    protected abstract void viewAccepted(View view);

    /** This member in the cluster. */
    public Address address() {
        return channel.getAddress();
    }

    /** Where this member's cluster transport listens. */
    public InetSocketAddress transportAddress() {
        IpAddress ip = (IpAddress) channel.down(new Event(Event.GET_PHYSICAL_ADDRESS, address()));
        return new InetSocketAddress(ip.getIpAddress(), ip.getPort());
    }

    /** {@link #transportAddress()} as {@code ip:port}. */
    public String endpoint() {
        InetSocketAddress a = transportAddress();
        return a.getAddress().getHostAddress() + ":" + a.getPort();
    }

    /** The cluster's current members, this one included; empty once closed. */
    public List<Address> members() {
        View v = channel.getView();
        return v == null ? List.of() : v.getMembers();
    }

    /** The name a member goes by. */
    public String name(Address member) {
        return NameCache.get(member);
    }

    /** The IP address {@code member}'s cluster transport is reached at, or null when not (or no longer) known. */
    protected String ipOf(Address member) {
        Object physical = channel.down(new Event(Event.GET_PHYSICAL_ADDRESS, member));
        if (physical instanceof IpAddress ip && ip.getIpAddress() != null) {
            return ip.getIpAddress().getHostAddress();
        }
        return physical instanceof PhysicalAddress p ? p.printIpAddress() : null;
    }

    /** Why an agent did not answer, in words. */
    protected static String why(Throwable e) {
        Throwable cause = e instanceof ExecutionException && e.getCause() != null ? e.getCause() : e;
        return cause instanceof SuspectedException ? "it was lost"
                : cause instanceof TimeoutException ? "no answer in time" : String.valueOf(cause);
    }

    /** A future's value within {@code timeoutMillis}, or the failure of the agent it waited for, named. */
    protected <T> T result(Address agent, String step, Future<T> f, long timeoutMillis) {
        try {
            return f.get(timeoutMillis, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AgentFailure(name(agent), step, "interrupted");
        } catch (TimeoutException e) {
            f.cancel(true);
            throw new AgentFailure(name(agent), step, "no answer within " + timeoutMillis + " ms");
        } catch (ExecutionException e) {
            throw new AgentFailure(name(agent), step, why(e));
        }
    }

    /** Leaves the cluster (the others see it go at once) and releases the channel's threads and sockets. */
    @Override
    public void close() {
        dispatcher.stop();
        channel.close();
    }
}
