// layergen writes a directory as a gzip'd tar layer the way docker, buildkit and
// go-containerregistry do: archive/tar into compress/gzip at a given level.
// The codec tests use it to get layers from the real Go encoder.
//
//	layergen -level 6 -o layer.tar.gz DIR
package main

import (
	"archive/tar"
	"compress/gzip"
	"flag"
	"io"
	"io/fs"
	"log"
	"os"
	"path/filepath"
)

func main() {
	level := flag.Int("level", gzip.DefaultCompression, "compress/gzip level (-2..9)")
	out := flag.String("o", "layer.tar.gz", "output file")
	flag.Parse()
	if flag.NArg() != 1 {
		log.Fatal("usage: layergen [-level N] [-o FILE] DIR")
	}
	if err := write(flag.Arg(0), *out, *level); err != nil {
		log.Fatal(err)
	}
}

func write(root, out string, level int) error {
	f, err := os.Create(out)
	if err != nil {
		return err
	}
	defer f.Close()
	gz, err := gzip.NewWriterLevel(f, level)
	if err != nil {
		return err
	}
	tw := tar.NewWriter(gz)
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, path)
		if err != nil || rel == "." {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		link := ""
		if info.Mode()&fs.ModeSymlink != 0 {
			if link, err = os.Readlink(path); err != nil {
				return err
			}
		}
		hdr, err := tar.FileInfoHeader(info, link)
		if err != nil {
			return err
		}
		hdr.Name = filepath.ToSlash(rel)
		if info.IsDir() {
			hdr.Name += "/"
		}
		if err := tw.WriteHeader(hdr); err != nil {
			return err
		}
		if !info.Mode().IsRegular() {
			return nil
		}
		src, err := os.Open(path)
		if err != nil {
			return err
		}
		defer src.Close()
		_, err = io.Copy(tw, src)
		return err
	})
	if err != nil {
		return err
	}
	if err := tw.Close(); err != nil {
		return err
	}
	return gz.Close()
}
