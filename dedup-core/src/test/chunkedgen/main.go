// chunkedgen writes stdin (a tar) as a zstd:chunked layer to stdout with containers/storage's
// compressor, as podman and buildah write --compression-format zstd:chunked:
//
//	chunkedgen LEVEL <in.tar >out.zst
package main

import (
	"io"
	"log"
	"os"
	"strconv"

	"github.com/containers/storage/pkg/chunked/compressor"
)

func main() {
	log.SetFlags(0)
	level, err := strconv.Atoi(os.Args[1])
	if err != nil {
		log.Fatal(err)
	}
	w, err := compressor.ZstdCompressor(os.Stdout, map[string]string{}, &level)
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
