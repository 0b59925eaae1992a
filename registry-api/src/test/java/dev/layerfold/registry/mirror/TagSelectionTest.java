package dev.layerfold.registry.mirror;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Which tags a mirror rule selects: globs, regular expressions and version ranges. */
class TagSelectionTest {

    private static final List<String> UPSTREAM_TAGS = List.of("latest", "1", "1.1", "1.2", "1.2.7", "v1.10.0", "1.2.3-rc1",
            "1.20-alpine", "2", "2.0.1", "3.20", "3.20-alpine", "edge", "a.b");

    private static List<String> selected(List<String> patterns, String semver) {
        TagSelection selection = TagSelection.of(patterns, semver);
        return UPSTREAM_TAGS.stream().filter(selection::selects).toList();
    }

    @Test
    void noPatternSelectsEveryTag() {
        assertThat(selected(List.of(), null)).isEqualTo(UPSTREAM_TAGS);
    }

    @Test
    void globsMatchTheWholeTagWithTheirDotsLiteral() {
        assertThat(selected(List.of("3.*"), null)).containsExactly("3.20", "3.20-alpine");
        assertThat(selected(List.of("*-alpine", "latest"), null)).containsExactly("latest", "1.20-alpine", "3.20-alpine");
        assertThat(selected(List.of("?"), null)).containsExactly("1", "2");
        assertThat(selected(List.of("1.2"), null)).containsExactly("1.2");
    }

    @Test
    void regularExpressionsFollowTheirPrefix() {
        assertThat(selected(List.of("regex:\\d+\\.\\d+"), null)).containsExactly("1.1", "1.2", "3.20");
        assertThat(selected(List.of("regex:v?1\\.1.*"), null)).containsExactly("1.1", "v1.10.0");
    }

    @Test
    void aRangeKeepsTheVersionsInItAndLeavesOutTagsThatAreNoVersion() {
        assertThat(selected(List.of(), ">=1.2 <2")).containsExactly("1.2", "1.2.7", "v1.10.0", "1.2.3-rc1", "1.20-alpine");
        // A pre-release sorts before its release.
        assertThat(selected(List.of(), ">1.2.2 <1.2.4")).containsExactly("1.2.3-rc1");
        assertThat(selected(List.of(), "=2")).containsExactly("2");
        assertThat(selected(List.of(), ">2")).containsExactly("2.0.1", "3.20", "3.20-alpine");
    }

    @Test
    void patternsAndRangeMustBothHold() {
        assertThat(selected(List.of("*-alpine"), "<3")).containsExactly("1.20-alpine");
        assertThat(selected(List.of("1.*", "v*"), ">=1.2 <=1.10")).containsExactly("1.2", "1.2.7", "v1.10.0", "1.2.3-rc1");
    }

    @Test
    void whatCannotBeReadIsRefusedAtStartup() {
        assertThatThrownBy(() -> TagSelection.of(List.of("regex:("), null)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("regex:(");
        assertThatThrownBy(() -> TagSelection.of(List.of(), ">=one")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(">=one");
    }

    @Test
    void theNextPageIsTakenFromTheLinkHeader() {
        assertThat(MirrorJob.nextPage("</v2/library/alpine/tags/list?last=3.20&n=1000>; rel=\"next\""))
                .contains("tags/list?last=3.20&n=1000");
        assertThat(MirrorJob.nextPage("<https://other.example/v2/x/tags/list?n=10&last=b>; rel=\"next\""))
                .contains("tags/list?n=10&last=b");
        assertThat(MirrorJob.nextPage("garbage")).isEmpty();
        assertThat(MirrorJob.nextQuery("</v2/_catalog?last=library%2Fnode&n=1000>; rel=\"next\"")).contains("?last=library%2Fnode&n=1000");
        assertThat(MirrorJob.nextQuery("</v2/_catalog?n=1000>; rel=\"prev\"")).isEmpty();
    }

    @Test
    void aRepositoryGlobMatchesWithinAComponentOrAcrossWithTwoStars() {
        RepositoryGlob library = RepositoryGlob.of("library/*");
        assertThat(library.matches("library/alpine")).isTrue();
        assertThat(library.matches("library/alpine/tools")).isFalse();
        assertThat(library.matches("other/alpine")).isFalse();
        assertThat(library.matches("library.x/alpine")).isFalse();
        RepositoryGlob team = RepositoryGlob.of("team/**");
        assertThat(team.matches("team/a")).isTrue();
        assertThat(team.matches("team/a/b")).isTrue();
        assertThat(team.matches("teams/a")).isFalse();
        RepositoryGlob versions = RepositoryGlob.of("lib/app-?");
        assertThat(versions.matches("lib/app-1")).isTrue();
        assertThat(versions.matches("lib/app-10")).isFalse();
        assertThat(RepositoryGlob.isGlob("library/alpine")).isFalse();
        assertThat(RepositoryGlob.isGlob("library/*")).isTrue();
        assertThat(new MirrorProperties.Rule("hub", "library/*", null, null, null, java.time.Duration.ofHours(1))
                .selectsRepositories()).isTrue();
    }
}
