package dev.layerfold.gc;

import java.time.Instant;

/**
 * What one run of the collector did.
 *
 * @param rebuiltReferences true if the run rebuilt the references of every manifest (the index was incomplete) instead of collecting
 * @param judged            candidates looked at
 * @param blobsRemoved      blobs (layers, configs, manifests) deleted
 * @param bytesReclaimed    their bytes, with the layer records of deduplicated layers
 * @param layersReleased    deduplicated layers whose file references were given back
 * @param filesForgotten    deduplicated files no layer references any more (their bytes stay in their packs until rewritten)
 * @param packBytesFreed    the compressed bytes of those files, dead in their packs
 * @param orphansNominated objects of the bucket no index knew, older than the grace, made candidates by the sweep
 * @param packsRewritten    sparse packs whose live files were moved to a new pack (or which had none), now retired
 * @param packBytesReclaimed their sizes less those of the new packs: what the bucket gives back once they are deleted
 * @param retiredPacksDeleted packs retired at least the pack grace ago, deleted by this run
 * @param stoppedEarly      the run stopped before the candidates ran out (lease lost, or too slow to delete safely)
 */
public record CollectionReport(Instant started, Instant finished, boolean rebuiltReferences, long judged,
                               long blobsRemoved, long bytesReclaimed, long layersReleased, long filesForgotten,
                               long packBytesFreed, long orphansNominated, long packsRewritten, long packBytesReclaimed,
                               long retiredPacksDeleted, boolean stoppedEarly) {
}
