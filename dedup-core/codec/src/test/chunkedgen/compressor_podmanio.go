//go:build podmanio

package main

import "go.podman.io/storage/pkg/chunked/compressor"

// zstdCompressor is go.podman.io/storage's, the module containers/storage became at 1.60 (podman 5.7 on).
var zstdCompressor = compressor.ZstdCompressor
