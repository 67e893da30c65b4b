package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/BurntSushi/toml"
	"github.com/spf13/pflag"

	"github.com/handoff-cli/handoff"
)

// config is the user's config file, $XDG_CONFIG_HOME/handoff/config.toml
// (else ~/.config/handoff/config.toml; $HANDOFF_CONFIG names another).
// Each value is a default: a flag beats the environment, which beats the
// file, which beats the built-in default.
//
//	budget = 3000              # --budget of compile, resume, watch, hook, show --prompt
//	checkpoint = 0.85          # --checkpoint of watch and hook
//	extractor = "heuristic"    # --extractor / $HANDOFF_EXTRACTOR
//	model = "gpt-4o-mini"      # --extract-model / $HANDOFF_MODEL
//	db = "~/handoff.db"        # --db / $HANDOFF_DB
type config struct {
	Budget     int     `toml:"budget"`
	Checkpoint float64 `toml:"checkpoint"`
	Extractor  string  `toml:"extractor"`
	Model      string  `toml:"model"`
	DB         string  `toml:"db"`

	// path is the file read, "" when there is none.
	path string
}

// configPath is where the config file is looked for.
func (a *app) configPath() string {
	if p := a.getenv("HANDOFF_CONFIG"); p != "" {
		return p
	}
	if x := a.getenv("XDG_CONFIG_HOME"); x != "" {
		return filepath.Join(x, "handoff", "config.toml")
	}
	if h := a.getenv("HOME"); h != "" {
		return filepath.Join(h, ".config", "handoff", "config.toml")
	}
	return ""
}

// loadConfig reads the config file. No file is no config; a file that
// does not parse, or has a key handoff does not know (a typo would
// otherwise be ignored silently), is EINVALID.
func (a *app) loadConfig() (*config, error) {
	c := &config{}
	path := a.configPath()
	if path == "" {
		return c, nil
	}
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return c, nil
	}
	if err != nil {
		return nil, handoff.Errorf(handoff.EINVALID, "read config %s: %w", path, err)
	}
	md, err := toml.Decode(string(data), c)
	if err != nil {
		return nil, handoff.Errorf(handoff.EINVALID, "config %s: %w", path, err)
	}
	if extra := md.Undecoded(); len(extra) > 0 {
		keys := make([]string, len(extra))
		for i, k := range extra {
			keys[i] = k.String()
		}
		return nil, handoff.Errorf(handoff.EINVALID, "config %s: unknown key(s) %s (known: budget, checkpoint, extractor, model, db)", path, strings.Join(keys, ", "))
	}
	if c.DB != "" {
		if c.DB == "~" || strings.HasPrefix(c.DB, "~/") {
			c.DB = filepath.Join(a.getenv("HOME"), strings.TrimPrefix(c.DB[1:], "/"))
		}
	}
	c.path = path
	return c, nil
}

// applyDefaults sets the flags the config file gives a value for, unless
// given on the command line, so they are validated and used like typed
// flags.
func (c *config) applyDefaults(flags *pflag.FlagSet) error {
	set := func(name, value string) error {
		f := flags.Lookup(name)
		if f == nil || f.Changed {
			return nil
		}
		if err := f.Value.Set(value); err != nil {
			return handoff.Errorf(handoff.EINVALID, "config %s: %s = %s: %w", c.path, name, value, err)
		}
		return nil
	}
	if c.Budget != 0 {
		if err := set("budget", strconv.Itoa(c.Budget)); err != nil {
			return err
		}
	}
	if c.Checkpoint != 0 {
		if err := set("checkpoint", strconv.FormatFloat(c.Checkpoint, 'f', -1, 64)); err != nil {
			return err
		}
	}
	return nil
}

func (c *config) String() string {
	if c == nil || c.path == "" {
		return "no config file"
	}
	return fmt.Sprintf("config %s", c.path)
}
