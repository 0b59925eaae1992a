// pgzipref is the oracle for Layerfold's pgzip encoder: klauspost/pgzip at the version go.mod (or the
// -modfile given to go build) pins, writing stdin as one gzip member to stdout. With -bench it
// instead compresses a file in-process, as the pgzip benchmark suite's Go side.
//
//	pgzipref LEVEL BLOCKSIZE <in >out.gz
//	pgzipref -bench ROUNDS LEVEL BLOCKSIZE input-file
//
// -bench prints one line per round: the input megabytes (10^6 bytes) compressed per CPU second of
// the whole process (pgzip compresses blocks on several goroutines; Linux only).
package main

import (
	"fmt"
	"io"
	"log"
	"os"
	"strconv"
	"syscall"

	"github.com/klauspost/pgzip"
)

func main() {
	if len(os.Args) > 1 && os.Args[1] == "-bench" {
		bench(atoi(os.Args[2]), atoi(os.Args[3]), atoi(os.Args[4]), os.Args[5])
		return
	}
	w := newWriter(os.Stdout, atoi(os.Args[1]), atoi(os.Args[2]))
	if _, err := io.Copy(w, os.Stdin); err != nil {
		log.Fatal(err)
	}
	if err := w.Close(); err != nil {
		log.Fatal(err)
	}
}

func atoi(s string) int {
	n, err := strconv.Atoi(s)
	if err != nil {
		log.Fatal(err)
	}
	return n
}

func newWriter(out io.Writer, level, blockSize int) *pgzip.Writer {
	w, err := pgzip.NewWriterLevel(out, level)
	if err != nil {
		log.Fatal(err)
	}
	if err := w.SetConcurrency(blockSize, 4); err != nil {
		log.Fatal(err)
	}
	return w
}

// processCPUSeconds is the user plus system time of every thread of this process.
func processCPUSeconds() float64 {
	var usage syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &usage); err != nil {
		log.Fatal(err)
	}
	return float64(usage.Utime.Nano()+usage.Stime.Nano()) / 1e9
}

func bench(rounds, level, blockSize int, file string) {
	input, err := os.ReadFile(file)
	if err != nil {
		log.Fatal(err)
	}
	for round := 0; round < rounds; round++ {
		start := processCPUSeconds()
		w := newWriter(io.Discard, level, blockSize)
		// 64 KiB writes, as a tar stream is fed to gzip.
		for offset := 0; offset < len(input); offset += 1 << 16 {
			if _, err := w.Write(input[offset:min(offset+1<<16, len(input))]); err != nil {
				log.Fatal(err)
			}
		}
		if err := w.Close(); err != nil {
			log.Fatal(err)
		}
		fmt.Printf("%.3f\n", float64(len(input))/1e6/(processCPUSeconds()-start))
	}
}
