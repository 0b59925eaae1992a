// zstdgen writes stdin as a zstd stream to stdout with one of the encoders zstd layers are made
// with, for Layerfold's zstd tests:
//
//	zstdgen libzstd LEVEL [-size] [-nocheck] [-workers N] <in >out.zst
//	    the C library (DataDog/zstd bundles libzstd's sources at the version go.mod pins, built by cgo),
//	    through its streaming API as a program that calls the C library does; -size pledges the
//	    input's size first (the frame then records it), -workers N compresses in N threads,
//	    -oneshot makes one ZSTD_compress2 call instead, -endafter gives ZSTD_e_end after the last input
//	    instead of with it
//	zstdgen version 0
//	    prints the bundled libzstd's ZSTD_versionNumber()
//	zstdgen klauspost LEVEL <in >out.zst
//	    klauspost/compress/zstd's streaming Writer, as containers/image (podman, buildah, skopeo)
//	    writes tar+zstd layers; LEVEL is its EncoderLevel (1 fastest .. 4 best). go.mod pins
//	    compress 1.20.3; build with -modfile=compress-VERSION.mod for another release
//	zstdgen klauspost-stream LEVEL <in >out.zst
//	    the same Writer fed by io.Copy from stdin (its ReadFrom, as containers/image copies a tar
//	    stream into it), never holding the input: for inputs of several GiB
//	zstdgen klauspost-flush LEVEL OFFSET... <in >out.zst
//	    the same Writer, the input written with a Flush at each content OFFSET (ascending), as
//	    containers/storage's zstd:chunked compressor flushes its last frame
//	zstdgen klauspost-bench LEVEL ROUNDS FILE
//	    the same Writer compressing FILE in-process (64 KiB writes, output dropped), ROUNDS times:
//	    one line per round, megabytes (10^6 bytes) per CPU second of the whole process (Linux only)
package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"strconv"
	"syscall"

	"github.com/klauspost/compress/zstd"
)

func main() {
	log.SetFlags(0)
	encoder, level := os.Args[1], atoi(os.Args[2])
	if encoder == "klauspost-bench" {
		benchKlauspost(level, atoi(os.Args[3]), os.Args[4])
		return
	}
	if encoder == "klauspost-stream" {
		w, err := zstd.NewWriter(os.Stdout, zstd.WithEncoderLevel(zstd.EncoderLevel(level)))
		if err != nil {
			log.Fatal(err)
		}
		if _, err := io.Copy(w, os.Stdin); err != nil {
			log.Fatal(err)
		}
		if err := w.Close(); err != nil {
			log.Fatal(err)
		}
		return
	}
	if encoder == "klauspost-flush" {
		flushing(level, os.Args[3:])
		return
	}
	flags := flag.NewFlagSet(encoder, flag.ExitOnError)
	size := flags.Bool("size", false, "pledge the input size")
	noCheck := flags.Bool("nocheck", false, "no content checksum")
	workers := flags.Int("workers", 0, "compression threads")
	oneShot := flags.Bool("oneshot", false, "one ZSTD_compress2 call (the size is then always recorded)")
	endAfter := flags.Bool("endafter", false, "all input with ZSTD_e_continue, then ZSTD_e_end alone (as the CLI reading a pipe)")
	if err := flags.Parse(os.Args[3:]); err != nil {
		log.Fatal(err)
	}
	input, err := io.ReadAll(os.Stdin)
	if err != nil {
		log.Fatal(err)
	}
	switch encoder {
	case "libzstd":
		options := libzstdOptions{level: level, pledgeSize: *size, checksum: !*noCheck, contentSize: true, workers: *workers, oneShot: *oneShot,
			endAfterInput: *endAfter}
		if err := libzstdCompress(input, options, os.Stdout); err != nil {
			log.Fatal(err)
		}
	case "version":
		fmt.Println(libzstdVersion())
	case "klauspost":
		w, err := zstd.NewWriter(os.Stdout, zstd.WithEncoderLevel(zstd.EncoderLevel(level)))
		if err != nil {
			log.Fatal(err)
		}
		if _, err := io.Copy(w, bytes.NewReader(input)); err != nil {
			log.Fatal(err)
		}
		if err := w.Close(); err != nil {
			log.Fatal(err)
		}
	default:
		log.Fatalf("unknown encoder %q", encoder)
	}
}

func flushing(level int, offsets []string) {
	input, err := io.ReadAll(os.Stdin)
	if err != nil {
		log.Fatal(err)
	}
	w, err := zstd.NewWriter(os.Stdout, zstd.WithEncoderLevel(zstd.EncoderLevel(level)))
	if err != nil {
		log.Fatal(err)
	}
	written := 0
	for _, offset := range offsets {
		at := atoi(offset)
		if _, err := w.Write(input[written:at]); err != nil {
			log.Fatal(err)
		}
		written = at
		if err := w.Flush(); err != nil {
			log.Fatal(err)
		}
	}
	if _, err := w.Write(input[written:]); err != nil {
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

func benchKlauspost(level, rounds int, file string) {
	input, err := os.ReadFile(file)
	if err != nil {
		log.Fatal(err)
	}
	for round := 0; round < rounds; round++ {
		start := processCPUSeconds()
		w, err := zstd.NewWriter(io.Discard, zstd.WithEncoderLevel(zstd.EncoderLevel(level)))
		if err != nil {
			log.Fatal(err)
		}
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

// processCPUSeconds is the user plus system time of every thread of this process.
func processCPUSeconds() float64 {
	var usage syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &usage); err != nil {
		log.Fatal(err)
	}
	return float64(usage.Utime.Nano()+usage.Stime.Nano()) / 1e9
}
