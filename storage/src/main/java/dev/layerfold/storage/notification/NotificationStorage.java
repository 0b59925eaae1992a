package dev.layerfold.storage.notification;

/** A metadata store that keeps the notification outbox. */
public interface NotificationStorage {
    NotificationOutbox notificationOutbox();
}
