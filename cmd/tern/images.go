package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/ternhq/tern/provider"
	"github.com/ternhq/tern/tools/imaging"
)

// maxImageFile bounds an image file read for --image, before scaling.
const maxImageFile = 64 << 20

// loadImages reads the --image files (relative to the working directory:
// the user named them, so they may lie outside the workspace) and prepares
// each for the model.
func (c *cli) loadImages(paths []string) ([]provider.Image, error) {
	out := make([]provider.Image, 0, len(paths))
	for _, p := range paths {
		if !filepath.IsAbs(p) {
			p = filepath.Join(c.cwd, p)
		}
		data, err := readLimited(p, maxImageFile)
		if err != nil {
			return nil, fmt.Errorf("--image %s: %w", p, err)
		}
		img, err := imaging.Prepare(p, data)
		if err != nil {
			return nil, fmt.Errorf("--image: %w", err)
		}
		out = append(out, providerImage(img))
	}
	return out, nil
}

// providerImage is the prepared picture in the provider's terms.
func providerImage(i imaging.Image) provider.Image {
	return provider.Image{MediaType: i.MediaType, Data: i.Data, Hash: i.Hash, Name: i.Name, Width: i.Width, Height: i.Height}
}

// readLimited reads a file of at most limit bytes.
func readLimited(path string, limit int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer func() { _ = f.Close() }() // read only
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > limit {
		return nil, fmt.Errorf("larger than %d MiB", limit>>20)
	}
	return data, nil
}
