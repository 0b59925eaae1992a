package dev.layerfold.registry.mirror;

import java.time.Instant;

/**
 * What one run of a mirror rule did.
 *
 * @param repositoriesSelected the upstream's repositories the rule went through: 1 for a rule naming one, the
 *     catalog's repositories its glob selected for one naming them by glob (0 when the catalog could not be read)
 * @param tagsSelected the upstream's tags the rule selected
 * @param tagsMirrored those that were new here or had moved, and now name the upstream's content
 * @param failures tags that failed (or 1 for a run that failed as a whole: the tag list could not be read)
 * @param error the last failure's message; null if none
 */
public record MirrorRun(Instant started, Instant finished, int repositoriesSelected, int tagsSelected, int tagsMirrored, int failures, String error) {
}
