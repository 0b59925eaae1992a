//go:build !podmanio

package main

import "github.com/containers/storage/pkg/chunked/compressor"

// zstdCompressor is containers/storage's, up to 1.59 (podman 5.0 to 5.6).
var zstdCompressor = compressor.ZstdCompressor
