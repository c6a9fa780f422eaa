package main

import (
	"context"
	"fmt"
	"io"
)

func clariqImport(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	return fmt.Errorf("not yet")
}
