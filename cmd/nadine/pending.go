package main

import (
	"context"
	"errors"
)

func runServe(ctx context.Context, args []string, e env) error { return errors.New("serve: not built yet") }
func runEval(ctx context.Context, args []string, e env) error  { return errors.New("eval: not built yet") }
func runBench(ctx context.Context, args []string, e env) error { return errors.New("bench: not built yet") }
