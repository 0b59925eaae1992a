#!/usr/bin/env python3
"""Reference raw-deflate encoder for the Java zlib port's tests: the system zlib through ctypes.

Python's zlib module links the same libz, but cannot call deflateParams(), deflatePrime() or
deflatePending(), nor choose how much input one deflate() call sees, which level 0 depends on; ctypes
can. Runs as one long-lived process serving framed requests on stdin/stdout so a test can ask for
thousands of cases cheaply.

Request:  u32 length, then that many bytes of script. Script: ops until the end, each a one-byte code:
  'I' level memLevel windowBits strategy (4 x i32)  deflateInit2 (raw: windowBits is made negative)
  'D' flush (i32) length (u32) bytes                one deflate() call over all those bytes
  'P' level strategy (2 x i32)                      deflateParams (its output, if any, is kept)
  'S' length (u32) bytes                            deflateSetDictionary
  'R'                                               deflateReset
  'B' bits value (2 x i32)                          deflatePrime
  'Q'                                               deflatePending; its bit count is appended to the
                                                    output as one byte
Response: i32 length, then the output bytes; a negative length -n is followed by n bytes of error text.
Every deflate() call gets an output buffer larger than anything it can write (unlimited output).
The first response, before any request, is the zlib version string framed the same way.
"""
import ctypes
import ctypes.util
import struct
import sys

libz = ctypes.CDLL(ctypes.util.find_library("z") or "libz.so.1")
libz.zlibVersion.restype = ctypes.c_char_p


class ZStream(ctypes.Structure):
    _fields_ = [
        ("next_in", ctypes.c_void_p), ("avail_in", ctypes.c_uint), ("total_in", ctypes.c_ulong),
        ("next_out", ctypes.c_void_p), ("avail_out", ctypes.c_uint), ("total_out", ctypes.c_ulong),
        ("msg", ctypes.c_char_p), ("state", ctypes.c_void_p),
        ("zalloc", ctypes.c_void_p), ("zfree", ctypes.c_void_p), ("opaque", ctypes.c_void_p),
        ("data_type", ctypes.c_int), ("adler", ctypes.c_ulong), ("reserved", ctypes.c_ulong),
    ]


Z_OK, Z_STREAM_END, Z_BUF_ERROR = 0, 1, -5


class ScriptError(Exception):
    pass


def check(ret, what, ok=(Z_OK,)):
    if ret not in ok:
        raise ScriptError("%s returned %d" % (what, ret))


def run(script):
    strm = None
    out = bytearray()
    pos = 0
    try:
        while pos < len(script):
            op = script[pos:pos + 1]
            pos += 1
            if op == b"I":
                level, mem, wbits, strategy = struct.unpack_from(">4i", script, pos)
                pos += 16
                strm = ZStream()
                check(libz.deflateInit2_(ctypes.byref(strm), level, 8, -wbits, mem, strategy,
                                         libz.zlibVersion(), ctypes.sizeof(ZStream)), "deflateInit2")
            elif op == b"D":
                flush, length = struct.unpack_from(">iI", script, pos)
                pos += 8
                data = ctypes.create_string_buffer(bytes(script[pos:pos + length]), length)
                pos += length
                size = length + length // 2 + (1 << 20)
                buf = ctypes.create_string_buffer(size)
                strm.next_in = ctypes.cast(data, ctypes.c_void_p)
                strm.avail_in = length
                strm.next_out = ctypes.cast(buf, ctypes.c_void_p)
                strm.avail_out = size
                check(libz.deflate(ctypes.byref(strm), flush), "deflate", (Z_OK, Z_STREAM_END, Z_BUF_ERROR))
                if strm.avail_in != 0 or strm.avail_out == 0:
                    raise ScriptError("deflate left input or filled the output buffer")
                out += buf.raw[:size - strm.avail_out]
            elif op == b"P":
                level, strategy = struct.unpack_from(">2i", script, pos)
                pos += 8
                # deflateParams() may flush a block (deflate(Z_BLOCK)): give it room and keep it.
                size = 1 << 20
                buf = ctypes.create_string_buffer(size)
                strm.next_out = ctypes.cast(buf, ctypes.c_void_p)
                strm.avail_out = size
                check(libz.deflateParams(ctypes.byref(strm), level, strategy), "deflateParams")
                out += buf.raw[:size - strm.avail_out]
            elif op == b"S":
                (length,) = struct.unpack_from(">I", script, pos)
                pos += 4
                data = bytes(script[pos:pos + length])
                pos += length
                check(libz.deflateSetDictionary(ctypes.byref(strm), data, length), "deflateSetDictionary")
            elif op == b"R":
                check(libz.deflateReset(ctypes.byref(strm)), "deflateReset")
            elif op == b"B":
                bits, value = struct.unpack_from(">2i", script, pos)
                pos += 8
                check(libz.deflatePrime(ctypes.byref(strm), bits, value), "deflatePrime")
            elif op == b"Q":
                bits = ctypes.c_int()
                check(libz.deflatePending(ctypes.byref(strm), None, ctypes.byref(bits)), "deflatePending")
                out.append(bits.value)
            else:
                raise ScriptError("unknown op %r at %d" % (op, pos - 1))
        return bytes(out)
    finally:
        if strm is not None:
            libz.deflateEnd(ctypes.byref(strm))


def respond(stdout, payload, error=False):
    stdout.write(struct.pack(">i", -len(payload) if error else len(payload)))
    stdout.write(payload)
    stdout.flush()


def main():
    stdin, stdout = sys.stdin.buffer, sys.stdout.buffer
    respond(stdout, libz.zlibVersion())
    while True:
        head = stdin.read(4)
        if len(head) < 4:
            return
        (length,) = struct.unpack(">I", head)
        script = stdin.read(length)
        try:
            respond(stdout, run(script))
        except ScriptError as e:
            respond(stdout, str(e).encode(), error=True)


if __name__ == "__main__":
    main()
