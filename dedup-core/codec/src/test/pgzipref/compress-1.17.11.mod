module layerfold.dev/pgzipref

go 1.25

require github.com/klauspost/pgzip v1.2.6

require github.com/klauspost/compress v1.17.11 // indirect
