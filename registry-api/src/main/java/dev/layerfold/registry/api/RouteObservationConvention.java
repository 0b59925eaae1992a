package dev.layerfold.registry.api;

import io.micrometer.common.KeyValue;
import org.springframework.http.server.observation.DefaultServerRequestObservationConvention;
import org.springframework.http.server.observation.ServerRequestObservationContext;
import org.springframework.stereotype.Component;

/**
 * Names a Distribution API request's route in the {@code uri} tag of {@code http.server.requests},
 * also for requests with a body: those finish in an async dispatch, where Spring's handler mapping
 * sets the path pattern back to the catch-all {@code /v2/**} after {@link RegistryDispatcher} had set
 * the route's. The dispatcher leaves the route in a request attribute, which outlives both dispatches.
 */
@Component
class RouteObservationConvention extends DefaultServerRequestObservationConvention {

    /** The request attribute holding the route's path pattern. */
    static final String ROUTE = RouteObservationConvention.class.getName() + ".route";

    @Override
    protected KeyValue uri(ServerRequestObservationContext context) {
        if (context.getCarrier() != null && context.getCarrier().getAttribute(ROUTE) instanceof String pattern) {
            return KeyValue.of("uri", pattern);
        }
        return super.uri(context);
    }
}
