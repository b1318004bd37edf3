// Package gen builds the large, deterministic inputs of the speed measures
// (issue 20): a long session log, many short session logs and a big
// repository. The same seed always gives the same bytes.
package gen
