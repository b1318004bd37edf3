package main

import (
	"context"
	"flag"
	"strings"
	"time"

	"github.com/ternhq/tern/cmd/tern/config"
	"github.com/ternhq/tern/cmd/tern/doctor"
	"github.com/ternhq/tern/provider/openai"
)

// doctorFlags declares the flags of `tern doctor`.
func doctorFlags() (*flag.FlagSet, *commonFlags, *time.Duration) {
	fs, common := newFlagSet("tern doctor")
	timeout := fs.Duration("timeout", doctor.DefaultTimeout, "bound for each network check")
	return fs, common, timeout
}

// doctor is `tern doctor`: it checks the configuration and the gateway and
// exits with status 1 when a check fails.
func (c *cli) doctor(ctx context.Context, args []string) int {
	fs, common, timeout := doctorFlags()
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return c.flagError("tern doctor", err, doctorUsage)
	}
	if len(pos) > 0 {
		c.printf(c.stderr, "tern doctor: unexpected argument %q\nRun 'tern doctor --help' for usage.\n", pos[0])
		return exitUsage
	}
	if *timeout <= 0 {
		c.printf(c.stderr, "tern doctor: --timeout must be positive, e.g. --timeout 10s\n")
		return exitUsage
	}
	cfg, cfgErr := c.loadConfig(common)
	opts := doctor.Options{Config: cfg, ConfigErr: cfgErr, Timeout: *timeout}
	if off, _ := cfg.Offline(); !off {
		// One attempt: doctor reports what the gateway does, not what
		// retries hide.
		p, err := openai.New(openai.Config{
			BaseURL: cfg.BaseURL.V, APIKey: cfg.APIKey.V, Model: cfg.Model.V,
			ModelHeaders: cfg.ModelHeaders(), MaxAttempts: 1,
		})
		if err != nil {
			opts.GatewayErr = err
		} else {
			opts.Gateway = p
			opts.Facts = doctor.ModelFacts{Info: modelInfo(cfg, false), Window: p.ContextWindow}
		}
	}
	checks := doctor.Run(ctx, opts)
	var report strings.Builder
	if err := doctor.Write(&report, checks); err != nil {
		return exitFailed
	}
	// A gateway may quote the key back in an error; the report never shows it.
	c.printf(c.stdout, "tern %s doctor\n%s", version, config.Redact(report.String(), cfg.APIKey.V))
	if doctor.Failed(checks) {
		return exitFailed
	}
	return exitOK
}
