module layerfold.dev/pgzipref

go 1.25

require github.com/klauspost/pgzip v1.2.5

require github.com/klauspost/compress v1.14.4 // indirect
