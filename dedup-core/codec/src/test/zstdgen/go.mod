module layerfold.dev/zstdgen

go 1.25

require (
	github.com/DataDog/zstd v1.5.7
	github.com/klauspost/compress v1.20.3
)
