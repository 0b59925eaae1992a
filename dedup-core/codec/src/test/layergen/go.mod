module layerfold.dev/layergen

go 1.21
