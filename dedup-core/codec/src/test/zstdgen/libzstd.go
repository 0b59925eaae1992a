package main

/*
#include <stddef.h>
#include <stdlib.h>
// libzstd's streaming API, declared here and linked from the sources DataDog/zstd compiles into this
// binary (its package holds zstd.h; declaring the few calls used keeps this file self-contained).
typedef struct ZSTD_CCtx_s ZSTD_CCtx;
typedef struct { const void* src; size_t size; size_t pos; } ZSTD_inBuffer;
typedef struct { void* dst; size_t size; size_t pos; } ZSTD_outBuffer;
ZSTD_CCtx* ZSTD_createCCtx(void);
size_t ZSTD_freeCCtx(ZSTD_CCtx*);
size_t ZSTD_CCtx_setParameter(ZSTD_CCtx*, int param, int value);
size_t ZSTD_CCtx_setPledgedSrcSize(ZSTD_CCtx*, unsigned long long);
size_t ZSTD_compressStream2(ZSTD_CCtx*, ZSTD_outBuffer*, ZSTD_inBuffer*, int endOp);
size_t ZSTD_compress2(ZSTD_CCtx*, void* dst, size_t dstCapacity, const void* src, size_t srcSize);
size_t ZSTD_compressBound(size_t);
unsigned ZSTD_isError(size_t);
const char* ZSTD_getErrorName(size_t);
unsigned ZSTD_versionNumber(void);
size_t ZSTD_CStreamInSize(void);
*/
import "C"

import (
	"errors"
	"io"
	"unsafe"

	_ "github.com/DataDog/zstd" // compiles libzstd's C sources into this binary
)

// Parameter and directive numbers from zstd.h (stable API).
const (
	cCompressionLevel = 100
	cContentSizeFlag  = 200
	cChecksumFlag     = 201
	cNbWorkers        = 400
	eContinue         = 0
	eEnd              = 2
)

type libzstdOptions struct {
	level         int
	pledgeSize    bool
	checksum      bool
	contentSize   bool
	workers       int
	oneShot       bool
	endAfterInput bool
}

func libzstdVersion() int { return int(C.ZSTD_versionNumber()) }

func check(code C.size_t) error {
	if C.ZSTD_isError(code) != 0 {
		return errors.New(C.GoString(C.ZSTD_getErrorName(code)))
	}
	return nil
}

// libzstdCompress compresses input as the zstd CLI does (fileio.c): parameters set on a context,
// the size pledged when known, then ZSTD_CStreamInSize() pieces with ZSTD_e_continue and ZSTD_e_end
// at the end; or, with oneShot, one ZSTD_compress2 call as a program holding the whole input makes.
func libzstdCompress(input []byte, o libzstdOptions, out io.Writer) error {
	ctx := C.ZSTD_createCCtx()
	defer C.ZSTD_freeCCtx(ctx)
	for _, p := range [][2]int{{cCompressionLevel, o.level}, {cChecksumFlag, b2i(o.checksum)}, {cContentSizeFlag, b2i(o.contentSize)},
		{cNbWorkers, o.workers}} {
		if err := check(C.ZSTD_CCtx_setParameter(ctx, C.int(p[0]), C.int(p[1]))); err != nil {
			return err
		}
	}
	cin := C.CBytes(input)
	defer C.free(cin)
	bound := C.ZSTD_compressBound(C.size_t(len(input)))
	dst := C.malloc(bound)
	defer C.free(dst)
	if o.oneShot {
		n := C.ZSTD_compress2(ctx, dst, bound, cin, C.size_t(len(input)))
		if err := check(n); err != nil {
			return err
		}
		_, err := out.Write(C.GoBytes(dst, C.int(n)))
		return err
	}
	if o.pledgeSize {
		if err := check(C.ZSTD_CCtx_setPledgedSrcSize(ctx, C.ulonglong(len(input)))); err != nil {
			return err
		}
	}
	piece := int(C.ZSTD_CStreamInSize())
	ob := C.ZSTD_outBuffer{dst: dst, size: bound}
	for start := 0; ; start += piece {
		end := min(start+piece, len(input))
		ib := C.ZSTD_inBuffer{src: unsafe.Add(cin, start), size: C.size_t(end - start)}
		directive := eContinue
		if end == len(input) && (!o.endAfterInput || start == end) {
			directive = eEnd
		}
		for {
			left := C.ZSTD_compressStream2(ctx, &ob, &ib, C.int(directive))
			if err := check(left); err != nil {
				return err
			}
			if (directive == eContinue && ib.pos == ib.size) || (directive == eEnd && left == 0) {
				break
			}
		}
		if directive == eEnd {
			break
		}
	}
	_, err := out.Write(C.GoBytes(dst, C.int(ob.pos)))
	return err
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
