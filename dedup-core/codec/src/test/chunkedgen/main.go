// chunkedgen writes stdin (a tar) as a zstd:chunked layer to stdout with containers/storage's
// compressor, as podman and buildah write --compression-format zstd:chunked:
//
//	chunkedgen LEVEL <in.tar >out.zst
//
// go.mod pins containers/storage 1.59.1; storage-VERSION.mod others (-modfile), and
// storage-podman-VERSION.mod go.podman.io/storage, built with -tags podmanio. Make a new one with
// `go get -modfile=F.mod MODULE/pkg/chunked/compressor@VERSION`, not go mod tidy, which adds the
// other build tag's module too and can raise klauspost/compress past the release pinned.
package main

import (
	"io"
	"log"
	"os"
	"strconv"
)

func main() {
	log.SetFlags(0)
	level, err := strconv.Atoi(os.Args[1])
	if err != nil {
		log.Fatal(err)
	}
	w, err := zstdCompressor(os.Stdout, map[string]string{}, &level)
	if err != nil {
		log.Fatal(err)
	}
	if _, err := io.Copy(w, os.Stdin); err != nil {
		log.Fatal(err)
	}
	if err := w.Close(); err != nil {
		log.Fatal(err)
	}
}
