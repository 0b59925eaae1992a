module layerfold.dev/estargzgen

go 1.25.0

require github.com/containerd/stargz-snapshotter/estargz v0.19.1

require (
	github.com/klauspost/compress v1.20.1 // indirect
	github.com/opencontainers/go-digest v1.0.0 // indirect
	github.com/vbatts/tar-split v0.12.3 // indirect
)
