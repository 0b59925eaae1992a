package dev.layerfold.dedup.codec;

import dev.layerfold.dedup.codec.recipe.FileRef;
import dev.layerfold.dedup.codec.recipe.LayerFormat;
import dev.layerfold.dedup.codec.recipe.SkeletonOp;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Real tars of every shape the issue lists, made by GNU tar and Python's tarfile, split and rebuilt
 * both as plain tar layers and gzip layers: the rebuilt blob must have the original's sha256.
 */
class TarEdgeCaseRoundTripTest {

    @TempDir
    Path dir;

    static Stream<Arguments> tars() {
        String files = "mkdir -p src/etc src/usr/bin && echo hello > src/etc/hostname && head -c 70000 /dev/urandom > src/usr/bin/tool"
                + " && printf 'x%.0s' $(seq 1 600) > src/etc/six-hundred && : > src/etc/empty && ";
        return Stream.of(
                Arguments.of("directories only", "mkdir -p src/a/b/c src/d && tar --format=gnu -C src -cf layer.tar .", 0),
                Arguments.of("hard links", files + "ln src/etc/hostname src/etc/hostname.link && tar --format=posix -C src -cf layer.tar .", 3),
                Arguments.of("symlinks", files + "ln -s ../etc/hostname src/usr/bin/link && ln -s /nowhere src/dangling"
                        + " && tar --format=gnu -C src -cf layer.tar .", 3),
                Arguments.of("long names, PAX", files + "mkdir -p src/$(printf 'd%.0s' $(seq 1 120)) && echo deep > src/$(printf 'd%.0s' $(seq 1 120))/$(printf 'f%.0s' $(seq 1 150))"
                        + " && ln -s $(printf 't%.0s' $(seq 1 200)) src/longlink && tar --format=posix -C src -cf layer.tar .", 4),
                Arguments.of("long names, GNU", files + "mkdir -p src/$(printf 'd%.0s' $(seq 1 120)) && echo deep > src/$(printf 'd%.0s' $(seq 1 120))/$(printf 'f%.0s' $(seq 1 150))"
                        + " && ln -s $(printf 't%.0s' $(seq 1 200)) src/longlink && tar --format=gnu -C src -cf layer.tar .", 4),
                Arguments.of("sparse, GNU", "mkdir src && truncate -s 10M src/sparse && echo data | dd of=src/sparse bs=1 seek=5000000 conv=notrunc"
                        + " && for i in $(seq 1 30); do echo $i | dd of=src/many bs=1 seek=$((i * 100000)) conv=notrunc 2>/dev/null; done"
                        + " && tar --format=gnu --sparse -C src -cf layer.tar .", 2),
                Arguments.of("sparse, PAX 1.0", "mkdir src && truncate -s 10M src/sparse && echo data | dd of=src/sparse bs=1 seek=5000000 conv=notrunc"
                        + " && tar --format=posix --sparse --sparse-version=1.0 -C src -cf layer.tar .", 1),
                Arguments.of("device files", files + "mknod src/null c 1 3 && mknod src/loop b 7 0 && mkfifo src/fifo && tar --format=ustar -C src -cf layer.tar .", 3),
                Arguments.of("non-UTF-8 names", files + "touch src/$(printf 'caf\\351') && echo x > src/$(printf '\\377\\376') && tar --format=posix -C src -cf layer.tar .", 4),
                Arguments.of("whiteouts", files + "touch src/etc/.wh.passwd && mkdir src/opt && touch src/opt/.wh..wh..opq && tar --format=posix -C src -cf layer.tar .", 3),
                Arguments.of("old v7 format", files + "tar --format=v7 -C src -cf layer.tar .", 3),
                Arguments.of("trailing bytes after the end of the archive", files + "tar --format=gnu -C src -cf layer.tar . && printf 'trailing garbage' >> layer.tar", 3),
                Arguments.of("long trailing bytes become a body", files + "tar --format=gnu -C src -cf layer.tar . && head -c 100000 /dev/urandom >> layer.tar", 4),
                Arguments.of("python tarfile, PAX with non-UTF-8 names", files + "python3 -c \"import tarfile,os\n"
                        + "t=tarfile.open('layer.tar','w',format=tarfile.PAX_FORMAT,encoding='utf-8',errors='surrogateescape')\n"
                        + "t.add('src',arcname='.')\n"
                        + "i=tarfile.TarInfo('caf\\udce9-'+'n'*150); i.size=3; import io; t.addfile(i,io.BytesIO(b'abc'))\n"
                        + "d=tarfile.TarInfo('dev/zero'); d.type=tarfile.CHRTYPE; d.devmajor=1; d.devminor=5; t.addfile(d)\n"
                        + "t.close()\"", 4),
                Arguments.of("python tarfile, GNU", files + "python3 -c \"import tarfile\n"
                        + "t=tarfile.open('layer.tar','w',format=tarfile.GNU_FORMAT)\nt.add('src',arcname='.')\nt.close()\"", 3));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("tars")
    void plainTarLayerRebuildsIdentically(String name, String script, int files) throws Exception {
        byte[] tar = makeTar(script);
        TestCodec.RoundTrip trip = TestCodec.roundTrip(TestCodec.splitter(), tar);
        assertThat(sha256(trip.rebuilt())).isEqualTo(sha256(tar));
        assertThat(trip.split().recipe().skeleton().fileCount()).isEqualTo(files);
        if (!name.contains("trailing")) {
            assertThat(trip.split().tarDamage()).isEmpty();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("tars")
    void gzipLayerRebuildsIdenticallyWithItsEncoder(String name, String script, int files) throws Exception {
        byte[] layer = TestCodec.gzipMember(makeTar(script), 6);
        TestCodec.RoundTrip trip = TestCodec.roundTrip(TestCodec.splitter(), layer);
        assertThat(trip.rebuilt()).isEqualTo(layer);
        assertThat(trip.split().identifications()).singleElement().extracting(id -> id.encoder()).isEqualTo(TestCodec.jdk(6));
        assertThat(trip.split().recipe().skeleton().fileCount()).isEqualTo(files);
    }

    @Test
    void emptyLayerOfZeroBytesRebuildsIdentically() throws Exception {
        TestCodec.RoundTrip trip = TestCodec.roundTrip(TestCodec.splitter(), new byte[0]);
        assertThat(trip.rebuilt()).isEmpty();
        assertThat(trip.split().recipe().format()).isEqualTo(LayerFormat.TAR);
    }

    @Test
    void dockerEmptyLayerOfTwoZeroBlocksRebuildsIdentically() throws Exception {
        byte[] layer = TestCodec.gzipMember(new byte[1024], 6);
        TestCodec.RoundTrip trip = TestCodec.roundTrip(TestCodec.splitter(), layer);
        assertThat(trip.rebuilt()).isEqualTo(layer);
        assertThat(trip.split().entries()).isZero();
        assertThat(trip.store().bodies).isEmpty();
    }

    @Test
    void fileBodiesGoToTheSinkAndTheRecipeHoldsOnlyReferences() throws Exception {
        byte[] tar = makeTar("mkdir src && head -c 300000 /dev/urandom > src/big && echo small > src/small && tar --format=gnu -C src -cf layer.tar .");
        TestCodec.RoundTrip trip = TestCodec.roundTrip(TestCodec.splitter(), tar);
        assertThat(trip.store().bodies.keySet()).extracting(FileRef::size).containsExactlyInAnyOrder(300000L, 6L);
        assertThat(trip.split().recipe().toBytes().length).isLessThan(3000);
        Iterator<SkeletonOp> ops = trip.split().recipe().skeleton().ops();
        long inline = 0;
        while (ops.hasNext()) {
            if (ops.next() instanceof SkeletonOp.Inline i) {
                inline += i.bytes().length;
            }
        }
        assertThat(inline).isEqualTo(tar.length - 300000 - 6 - (512 - 300000 % 512) - (512 - 6));
    }

    @Test
    void multiMemberGzipWithTrailingBytesRebuildsIdentically() throws Exception {
        byte[] tar = makeTar("mkdir src && head -c 200000 /dev/urandom > src/a && seq 1 100000 > src/b && tar --format=gnu -C src -cf layer.tar .");
        int cut = 150001;
        ByteArrayOutputStream layer = new ByteArrayOutputStream();
        layer.writeBytes(TestCodec.gzipMember(java.util.Arrays.copyOfRange(tar, 0, cut), 9));
        layer.writeBytes(TestCodec.gzipMember(new byte[0], 6));
        layer.writeBytes(TestCodec.gzipMember(java.util.Arrays.copyOfRange(tar, cut, tar.length), 1));
        layer.writeBytes(new byte[] {0, 0, 0, 0, 'e', 'n', 'd'});
        byte[] blob = layer.toByteArray();

        TestCodec.RoundTrip trip = TestCodec.roundTrip(TestCodec.splitter(), blob);

        assertThat(trip.rebuilt()).isEqualTo(blob);
        // The empty member is tried with the previous member's encoder first, which writes its bytes as level 6 does.
        assertThat(trip.split().identifications()).extracting(id -> id.encoder().level()).containsExactly(9, 9, 1);
        assertThat(trip.split().recipe().members()).hasSize(3);
        assertThat(trip.split().recipe().trailingBytes()).hasSize(7);
        assertThat(trip.split().recipe().skeleton().fileCount()).isEqualTo(2);
    }

    private byte[] makeTar(String script) throws IOException, InterruptedException {
        Tools.sh(dir, script);
        return Files.readAllBytes(dir.resolve("layer.tar"));
    }

    static String sha256(byte[] bytes) throws NoSuchAlgorithmException {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    }
}
