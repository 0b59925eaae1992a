package dev.layerfold.storage.notification;

/**
 * One event in an endpoint's queue.
 *
 * @param sequence increasing within the endpoint's queue, in the order of appending
 * @param event    the serialized event, as appended
 */
public record OutboxEntry(long sequence, String event) {
}
