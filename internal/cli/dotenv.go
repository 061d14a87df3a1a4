package cli

import (
	"errors"
	"fmt"
	"io/fs"

	"github.com/joho/godotenv"
)

// withDotenv returns a Getenv that falls back to the variables of the
// .env file at path (when it exists) for names the environment lacks. The
// process environment is not changed, and no value is ever printed.
func withDotenv(getenv func(string) string, path string) (func(string) string, error) {
	vars, err := godotenv.Read(path)
	if errors.Is(err, fs.ErrNotExist) {
		return getenv, nil
	}
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
