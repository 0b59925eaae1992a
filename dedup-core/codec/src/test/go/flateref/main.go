// Command flateref is the oracle for Layerfold's Go-compatible DEFLATE encoder: it compresses
// with the Go toolchain's own compress/flate (raw DEFLATE, no gzip framing).
//
//	flateref -level 6 [-flush 100,4096] <in >out
//
// compresses stdin to stdout, calling Flush when that many input bytes have been written (an
// offset may repeat: each occurrence is one Flush).
//
//	flateref -serve
//
// answers many requests over stdin/stdout, so a property test does not start a process per case.
// All integers are big-endian. A request is: int32 level, int32 flush count, that many int64
// flush offsets (ascending), int32 input length, the input. The answer is int32 length and the
// compressed bytes, or int32 -1, int32 message length and an error message.
package main

import (
	"bufio"
	"bytes"
	"compress/flate"
	"encoding/binary"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
)

func main() {
	level := flag.Int("level", 6, "compression level, -2 to 9")
	flushes := flag.String("flush", "", "comma-separated input offsets at which to call Flush")
	serve := flag.Bool("serve", false, "answer length-prefixed requests on stdin/stdout")
	flag.Parse()

	var err error
	if *serve {
		err = serveRequests(os.Stdin, os.Stdout)
	} else {
		var offsets []int64
		offsets, err = parseOffsets(*flushes)
		if err == nil {
			out := bufio.NewWriterSize(os.Stdout, 1<<16)
			err = compress(out, os.Stdin, *level, offsets)
			if err == nil {
				err = out.Flush()
			}
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "flateref:", err)
		os.Exit(1)
	}
}

func parseOffsets(list string) ([]int64, error) {
	var offsets []int64
	for _, field := range strings.Split(list, ",") {
		if field == "" {
			continue
		}
		offset, err := strconv.ParseInt(field, 10, 64)
		if err != nil {
			return nil, fmt.Errorf("bad flush offset %q: %v", field, err)
		}
		offsets = append(offsets, offset)
	}
	return offsets, nil
}

// compress writes the raw DEFLATE stream of in to out, flushing at the given input offsets.
func compress(out io.Writer, in io.Reader, level int, flushOffsets []int64) error {
	w, err := flate.NewWriter(out, level)
	if err != nil {
		return err
	}
	buf := make([]byte, 1<<16)
	var position int64
	for {
		n, readErr := in.Read(buf)
		chunk := buf[:n]
		for len(chunk) > 0 || len(flushOffsets) > 0 && flushOffsets[0] == position {
			if len(flushOffsets) > 0 && flushOffsets[0] == position {
				if err := w.Flush(); err != nil {
					return err
				}
				flushOffsets = flushOffsets[1:]
				continue
			}
			part := chunk
			if len(flushOffsets) > 0 && flushOffsets[0]-position < int64(len(part)) {
				part = part[:flushOffsets[0]-position]
			}
			if _, err := w.Write(part); err != nil {
				return err
			}
			position += int64(len(part))
			chunk = chunk[len(part):]
		}
		if readErr == io.EOF {
			break
		}
		if readErr != nil {
			return readErr
		}
	}
	if len(flushOffsets) > 0 {
		return fmt.Errorf("flush offset %d is beyond the input's %d bytes", flushOffsets[0], position)
	}
	return w.Close()
}

func serveRequests(stdin io.Reader, stdout io.Writer) error {
	in := bufio.NewReaderSize(stdin, 1<<16)
	out := bufio.NewWriterSize(stdout, 1<<16)
	var compressed bytes.Buffer
	for {
		var header [8]byte
		if _, err := io.ReadFull(in, header[:]); err != nil {
			if errors.Is(err, io.EOF) {
				return nil
			}
			return err
		}
		level := int(int32(binary.BigEndian.Uint32(header[0:4])))
		flushCount := int(int32(binary.BigEndian.Uint32(header[4:8])))
		offsets := make([]int64, flushCount)
		if err := binary.Read(in, binary.BigEndian, offsets); err != nil {
			return err
		}
		var length int32
		if err := binary.Read(in, binary.BigEndian, &length); err != nil {
			return err
		}
		input := io.LimitReader(in, int64(length))
		compressed.Reset()
		err := compress(&compressed, input, level, offsets)
		// Drain what the request did not consume (after an error), to stay in step with the client.
		if _, drainErr := io.Copy(io.Discard, input); drainErr != nil {
			return drainErr
		}
		if err != nil {
			message := err.Error()
			binary.Write(out, binary.BigEndian, int32(-1))
			binary.Write(out, binary.BigEndian, int32(len(message)))
			out.WriteString(message)
		} else {
			binary.Write(out, binary.BigEndian, int32(compressed.Len()))
			out.Write(compressed.Bytes())
		}
		if err := out.Flush(); err != nil {
			return err
		}
	}
}
