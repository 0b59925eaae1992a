package dev.layerfold.storage.gc;

/** A metadata backend that also keeps the garbage collector's index, in the same store as the links. */
public interface GcStorage {

    GcIndex gcIndex();
}
