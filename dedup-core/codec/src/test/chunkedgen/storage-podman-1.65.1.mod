module layerfold.dev/chunkedgen

go 1.26.0

require (
	github.com/containers/storage v1.59.1
	go.podman.io/storage v1.65.1
)

require (
	cyphar.com/go-pathrs v0.2.5 // indirect
	github.com/cyphar/filepath-securejoin v0.7.0 // indirect
	github.com/docker/go-units v0.5.0 // indirect
	github.com/json-iterator/go v1.1.12 // indirect
	github.com/klauspost/compress v1.20.3 // indirect
	github.com/klauspost/pgzip v1.2.7 // indirect
	github.com/moby/sys/capability v0.4.0 // indirect
	github.com/moby/sys/mountinfo v0.7.2 // indirect
	github.com/moby/sys/user v0.4.1 // indirect
	github.com/modern-go/concurrent v0.0.0-20180306012644-bacd9c7ef1dd // indirect
	github.com/modern-go/reflect2 v1.0.3-0.20250322232337-35a7c28c31ee // indirect
	github.com/opencontainers/go-digest v1.0.0 // indirect
	github.com/opencontainers/runtime-spec v1.3.0 // indirect
	github.com/sirupsen/logrus v1.10.2 // indirect
	github.com/ulikunitz/xz v0.5.17 // indirect
	github.com/vbatts/tar-split v0.12.3 // indirect
	golang.org/x/sys v0.49.0 // indirect
)
