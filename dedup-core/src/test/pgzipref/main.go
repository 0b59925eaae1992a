// pgzipref is the oracle for Layerfold's pgzip encoder: klauspost/pgzip at the version go.mod pins,
// writing stdin as one gzip member to stdout.
//
//	pgzipref LEVEL BLOCKSIZE <in >out.gz
package main

import (
	"io"
	"log"
	"os"
	"strconv"

	"github.com/klauspost/pgzip"
)

func main() {
	level, err := strconv.Atoi(os.Args[1])
	if err != nil {
		log.Fatal(err)
	}
	blockSize, err := strconv.Atoi(os.Args[2])
	if err != nil {
		log.Fatal(err)
	}
	w, err := pgzip.NewWriterLevel(os.Stdout, level)
	if err != nil {
		log.Fatal(err)
	}
	if err := w.SetConcurrency(blockSize, 4); err != nil {
		log.Fatal(err)
	}
	if _, err := io.Copy(w, os.Stdin); err != nil {
		log.Fatal(err)
	}
	if err := w.Close(); err != nil {
		log.Fatal(err)
	}
}
