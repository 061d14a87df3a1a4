// Package dotenv reads a .env file as a fallback of the process
// environment (credentials such as PGPASSWORD), without changing it.
package dotenv

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"

	"github.com/joho/godotenv"

	"github.com/stampede-bench/stampede/internal/bounded"
)

// Getenv returns a Getenv that falls back to the variables of the
// .env file at path (when it exists) for names the environment lacks. The
// process environment is not changed, and no value is ever printed.
func Getenv(getenv func(string) string, path string) (func(string) string, error) {
	raw, err := bounded.ReadFile(context.Background(), path, bounded.ConfigBytes)
	if errors.Is(err, fs.ErrNotExist) {
		return getenv, nil
	}
	if bounded.IsTooLarge(err) {
		return nil, err
	}
	if err != nil {
		return nil, fmt.Errorf("read %s: %v", path, err)
	}
	vars, err := godotenv.Parse(bytes.NewReader(raw))
	if err != nil {
		return nil, fmt.Errorf("read %s: %v", path, err)
	}
	return func(k string) string {
		if v := getenv(k); v != "" {
			return v
		}
		return vars[k]
	}, nil
}
