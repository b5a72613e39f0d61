package io.loopbench.cluster;

/**
 * An agent failed a step of a distributed repetition: it was lost, did not answer in time, or answered with an
 * error. Names the agent and the step, so that the repetition's failure says who and where. Immutable.
 */
public class AgentFailure extends RuntimeException {

    private final String member;
    private final String step;

    public AgentFailure(String member, String step, String why) {
        super("agent " + member + " failed " + step + ": " + why);
        this.member = member;
        this.step = step;
    }

    public String member() {
        return member;
    }

    public String step() {
        return step;
    }
}
