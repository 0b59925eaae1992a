package dev.layerfold.registry.gc;

/** The collector's races on the embedded backends: files and SQLite. */
class CollectionWhileServingEmbeddedTest extends CollectionWhileServingTest {
}
