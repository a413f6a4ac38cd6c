package main

import (
	"log/slog"

	"github.com/nadine-robot/nadine/intents"
	"github.com/nadine-robot/nadine/modelcache"
)

// useModelCache keeps the trained classifiers in the user's cache directory,
// so that a start loads what an earlier run of this binary trained.
func useModelCache(log *slog.Logger) {
	files, err := modelcache.Open()
	if err != nil {
		log.Debug("model cache off: every start trains", "err", err)
		intents.UseCache(nil)
		return
	}
	intents.UseCache(&intents.Cache{Store: files, Log: log})
}
