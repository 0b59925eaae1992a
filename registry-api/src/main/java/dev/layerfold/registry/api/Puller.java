package dev.layerfold.registry.api;

/**
 * Who pulls, as the predictor tells clients apart: the signed-in identity when there is one, else the
 * client's address and user agent (many clients behind one address are told apart by their agents;
 * one client behind a changing address is not recognized).
 *
 * @param id the identity, {@code user:<name>} or {@code client:<address> <user agent>}
 * @param userAgent the request's User-Agent, empty if none (it often names the client's platform)
 */
public record Puller(String id, String userAgent) {

    static Puller of(RegistryRequest request) {
        String agent = request.header("User-Agent").orElse("");
        String caller = request.access().caller();
        return new Puller(Access.EVERYONE.caller().equals(caller)
                ? "client:" + request.remoteAddress() + " " + agent
                : "user:" + caller, agent);
    }
}
