package mock

import (
	"regexp"
	"sync"
)

// lazyRegexp returns a function that compiles pattern when it is first
// called and returns the same Regexp after. The scenes' patterns were
// compiled at package initialisation, in every command of tern (the
// offline provider is linked into all of them): 0.3 ms and 1,500
// allocations before main, for patterns most runs never use.
func lazyRegexp(pattern string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(pattern) })
}

// lazyRegexps is lazyRegexp for a list of patterns tried in order.
func lazyRegexps(patterns ...string) func() []*regexp.Regexp {
	return sync.OnceValue(func() []*regexp.Regexp {
		res := make([]*regexp.Regexp, len(patterns))
		for i, p := range patterns {
			res[i] = regexp.MustCompile(p)
		}
		return res
	})
}
