module layerfold.dev/pgzipref

go 1.25

require github.com/klauspost/pgzip v1.3.0

require github.com/klauspost/compress v1.20.3 // indirect
