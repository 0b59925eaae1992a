// Command flatebench measures the Go toolchain's compress/flate throughput in-process, so that
// process start-up is not counted, for comparison with Layerfold's Java port.
//
//	flatebench -level 6 -rounds 5 input-file
//
// prints one line per round: the input megabytes (10^6 bytes) compressed per CPU second of the
// compressing thread, so that other load on a shared machine does not count (Linux only).
package main

import (
	"compress/flate"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"syscall"
)

// rusageThread is Linux's RUSAGE_THREAD, which package syscall does not name.
const rusageThread = 1

// threadCPUSeconds is the user plus system time of the calling thread.
func threadCPUSeconds() float64 {
	var usage syscall.Rusage
	if err := syscall.Getrusage(rusageThread, &usage); err != nil {
		fmt.Fprintln(os.Stderr, "flatebench:", err)
		os.Exit(1)
	}
	return float64(usage.Utime.Nano()+usage.Stime.Nano()) / 1e9
}

func main() {
	// The compression runs on this goroutine; pinned to one thread, that thread's CPU time is its cost.
	runtime.LockOSThread()
	level := flag.Int("level", 6, "compression level, -2 to 9")
	rounds := flag.Int("rounds", 5, "how many times to compress the input")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: flatebench -level N -rounds R input-file")
		os.Exit(2)
	}
	input, err := os.ReadFile(flag.Arg(0))
	if err != nil {
		fmt.Fprintln(os.Stderr, "flatebench:", err)
		os.Exit(1)
	}
	w, err := flate.NewWriter(io.Discard, *level)
	if err != nil {
		fmt.Fprintln(os.Stderr, "flatebench:", err)
		os.Exit(1)
	}
	for round := 0; round < *rounds; round++ {
		w.Reset(io.Discard)
		start := threadCPUSeconds()
		// 64 KiB writes, as a tar stream is fed to gzip.
		for offset := 0; offset < len(input); offset += 1 << 16 {
			end := min(offset+1<<16, len(input))
			if _, err := w.Write(input[offset:end]); err != nil {
				fmt.Fprintln(os.Stderr, "flatebench:", err)
				os.Exit(1)
			}
		}
		if err := w.Close(); err != nil {
			fmt.Fprintln(os.Stderr, "flatebench:", err)
			os.Exit(1)
		}
		elapsed := threadCPUSeconds() - start
		fmt.Printf("%.3f\n", float64(len(input))/1e6/elapsed)
	}
}
