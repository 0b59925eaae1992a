// estargzgen writes an eStargz layer built by stargz-snapshotter's estargz package from a tar file:
// one gzip member per file (or chunk), the TOC member and the footer member.
package main

import (
	"compress/gzip"
	"flag"
	"io"
	"log"
	"os"

	"github.com/containerd/stargz-snapshotter/estargz"
)

func main() {
	level := flag.Int("level", gzip.BestCompression, "gzip level")
	chunk := flag.Int("chunk", 0, "chunk size (0: the package's default)")
	out := flag.String("o", "", "output file")
	flag.Parse()
	in, err := os.Open(flag.Arg(0))
	if err != nil {
		log.Fatal(err)
	}
	info, err := in.Stat()
	if err != nil {
		log.Fatal(err)
	}
	opts := []estargz.Option{estargz.WithCompressionLevel(*level)}
	if *chunk > 0 {
		opts = append(opts, estargz.WithChunkSize(*chunk))
	}
	blob, err := estargz.Build(io.NewSectionReader(in, 0, info.Size()), opts...)
	if err != nil {
		log.Fatal(err)
	}
	defer blob.Close()
	f, err := os.Create(*out)
	if err != nil {
		log.Fatal(err)
	}
	if _, err := io.Copy(f, blob); err != nil {
		log.Fatal(err)
	}
	if err := f.Close(); err != nil {
		log.Fatal(err)
	}
}
