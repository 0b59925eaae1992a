package dev.layerfold.registry.api;

import java.util.List;
import java.util.function.Supplier;
import org.springframework.beans.factory.ObjectProvider;

/**
 * Told of every push, pull and delete the API completes (notifications). Called on the request's
 * thread once the operation is done and before the response is sent: an implementation must return
 * quickly, whatever becomes of the event, and never throw.
 */
public interface RegistryEventListener {

    void happened(RegistryEvent event);

    /** False when nothing would be done with events: then none is made. */
    default boolean listening() {
        return true;
    }

    /** Tells the listeners that listen of the event, made only if one does. */
    static void tell(ObjectProvider<RegistryEventListener> listeners, Supplier<RegistryEvent> event) {
        List<RegistryEventListener> listening = listeners.orderedStream().filter(RegistryEventListener::listening).toList();
        if (!listening.isEmpty()) {
            RegistryEvent made = event.get();
            listening.forEach(listener -> listener.happened(made));
        }
    }
}
