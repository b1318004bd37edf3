package mock

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/ternhq/tern/provider"
)

func TestDeterministic(t *testing.T) {
	t.Parallel()
	convs := map[string][]provider.Message{
		"default": {user("hello")},
		"search":  {user("search Provider")},
		"think":   {user("think hard")},
		"edit step 2": {
			user("edit main.go"),
			{Role: provider.RoleAssistant, ToolCalls: []provider.ToolCall{{ID: "call_edit_0", Name: "read_file", Arguments: `{"path":"main.go"}`}}},
			{Role: provider.RoleTool, ToolCallID: "call_edit_0", Content: "     1\tpackage main\n     2\t\n     3\tfunc main() {}\n"},
		},
	}
	for name, msgs := range convs {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			a := collect(t, New(Options{}), request(msgs...))
			b := collect(t, New(Options{}), request(msgs...))
			if !reflect.DeepEqual(a, b) {
				t.Fatal("two runs over the same conversation streamed different deltas")
			}
		})
	}
}

// TestDeltaShape checks that every scene streams like a real gateway: text
// in small pieces, each call's first fragment with index, id and name, the
// arguments split over several fragments, then the finish reason, then usage
// last, in the order provider/openai passes on from OpenAI's streams.
func TestDeltaShape(t *testing.T) {
	t.Parallel()
	tests := []struct {
		msg    string
		calls  []string // expected tool names, in order
		finish provider.FinishReason
	}{
		{msg: "hello", finish: provider.FinishStop},
		{msg: "read go.mod", calls: []string{"read_file"}, finish: provider.FinishToolCalls},
		{msg: "search Provider", calls: []string{"grep", "list_files"}, finish: provider.FinishToolCalls},
		{msg: "edit main.go", calls: []string{"read_file"}, finish: provider.FinishToolCalls},
		{msg: "run go test ./...", calls: []string{"run_shell"}, finish: provider.FinishToolCalls},
		{msg: "fail", calls: []string{"delete_everything", "read_file"}, finish: provider.FinishToolCalls},
		{msg: "think", finish: provider.FinishStop},
		{msg: "long", finish: provider.FinishStop},
	}
	for _, tt := range tests {
		t.Run(tt.msg, func(t *testing.T) {
			t.Parallel()
			ds := collect(t, New(Options{ChunkSize: 5}), request(user(tt.msg)))
			n := len(ds)
			if n < 3 || ds[n-2].Kind != provider.DeltaFinish || ds[n-1].Kind != provider.DeltaUsage {
				t.Fatalf("stream must end with finish then usage; got %d deltas ending %v", n, kinds(ds[max(0, n-3):]))
			}
			if ds[n-2].Finish != tt.finish {
				t.Errorf("finish = %v, want %v", ds[n-2].Finish, tt.finish)
			}
			u := ds[n-1].Usage
			if u.PromptTokens <= 0 || u.CompletionTokens <= 0 || u.CachedPromptTokens > u.PromptTokens {
				t.Errorf("implausible usage %+v", u)
			}
			seen := map[int]bool{}
			argFrags := map[int]int{}
			for _, d := range ds[:n-2] {
				switch d.Kind {
				case provider.DeltaText, provider.DeltaReasoning:
					if r := len([]rune(d.Text)); r == 0 || r > 5 {
						t.Fatalf("text chunk %q has %d runes, want 1..5", d.Text, r)
					}
				case provider.DeltaToolCall:
					f := d.ToolCall
					if !f.HasIndex {
						t.Fatalf("fragment without index: %+v", f)
					}
					if !seen[f.Index] {
						seen[f.Index] = true
						if f.ID == "" || f.Name == "" || f.Arguments != "" {
							t.Fatalf("first fragment of call %d must carry id and name only: %+v", f.Index, f)
						}
						continue
					}
					if f.ID != "" || f.Name != "" || f.Arguments == "" {
						t.Fatalf("later fragment of call %d must carry only arguments: %+v", f.Index, f)
					}
					argFrags[f.Index]++
				case provider.DeltaUsage, provider.DeltaFinish:
					t.Fatalf("%v delta before the end", d.Kind)
				}
			}
			acc := accumulate(ds)
			calls := acc.ToolCalls()
			if len(calls) != len(tt.calls) {
				t.Fatalf("accumulated %d calls, want %v", len(calls), tt.calls)
			}
			for i, c := range calls {
				if c.Name != tt.calls[i] {
					t.Errorf("call %d = %s, want %s", i, c.Name, tt.calls[i])
				}
				if argFrags[i] < 2 {
					t.Errorf("call %d arguments came in %d fragments, want several", i, argFrags[i])
				}
				if !strings.HasPrefix(c.ID, "call_") {
					t.Errorf("call id %q", c.ID)
				}
			}
		})
	}
}

func kinds(ds []provider.Delta) []string {
	out := make([]string, len(ds))
	for i, d := range ds {
		out[i] = d.Kind.String()
	}
	return out
}

func TestParallelCallsInterleave(t *testing.T) {
	t.Parallel()
	ds := collect(t, New(Options{}), request(user("search Accumulator")))
	var order []int
	for _, d := range ds {
		if d.Kind == provider.DeltaToolCall {
			order = append(order, d.ToolCall.Index)
		}
	}
	switches := 0
	for i := 1; i < len(order); i++ {
		if order[i] != order[i-1] {
			switches++
		}
	}
	if switches < 3 {
		t.Fatalf("fragments of the two calls do not interleave: %v", order)
	}
	calls := accumulate(ds).ToolCalls()
	for _, c := range calls {
		if !json.Valid([]byte(c.Arguments)) {
			t.Errorf("%s arguments %q are not valid JSON", c.Name, c.Arguments)
		}
	}
	if got := arg(t, calls[0], "pattern"); got != "Accumulator" {
		t.Errorf("grep pattern = %q", got)
	}
	if got := arg(t, calls[1], "pattern"); got != "**/*Accumulator*" {
		t.Errorf("list_files pattern = %q", got)
	}
}

func TestCallIDsUniqueAcrossTurns(t *testing.T) {
	t.Parallel()
	msgs := []provider.Message{
		user("read a.go"),
		{Role: provider.RoleAssistant, ToolCalls: []provider.ToolCall{{ID: "call_read_0", Name: "read_file", Arguments: `{"path":"a.go"}`}}},
		{Role: provider.RoleTool, ToolCallID: "call_read_0", Content: "1\tpackage a"},
		{Role: provider.RoleAssistant, Content: "done"},
		user("search foo"),
	}
	calls := accumulate(collect(t, New(Options{}), request(msgs...))).ToolCalls()
	if len(calls) != 2 || calls[0].ID != "call_search_1" || calls[1].ID != "call_search_2" {
		t.Fatalf("ids = %+v, want call_search_1 and call_search_2", calls)
	}
}

func TestCancelMidStream(t *testing.T) {
	t.Parallel()
	p := New(Options{Delay: 20 * time.Millisecond})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	s, err := p.Stream(ctx, request(user("long")))
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = s.Close() }()
	for range 3 {
		if !s.Next() {
			t.Fatalf("stream ended early: %v", s.Err())
		}
	}
	time.AfterFunc(10*time.Millisecond, cancel)
	start := time.Now()
	for s.Next() {
		if time.Since(start) > 2*time.Second {
			t.Fatal("stream kept going after cancel")
		}
	}
	if took := time.Since(start); took > 500*time.Millisecond {
		t.Errorf("Next took %v to notice the cancel", took)
	}
	var pe *provider.Error
	if !errors.As(s.Err(), &pe) || pe.Kind != provider.ErrCancelled || !errors.Is(s.Err(), context.Canceled) {
		t.Fatalf("Err = %v, want a provider error of kind cancelled wrapping context.Canceled", s.Err())
	}
	if s.Next() {
		t.Error("Next after cancel returned true")
	}
}

func TestCancelledBeforeStream(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := New(Options{}).Stream(ctx, request(user("hello")))
	if provider.KindOf(err) != provider.ErrCancelled {
		t.Fatalf("err = %v, want kind cancelled", err)
	}
}

func TestCloseEndsStream(t *testing.T) {
	t.Parallel()
	s, err := New(Options{}).Stream(context.Background(), request(user("hello")))
	if err != nil {
		t.Fatal(err)
	}
	if !s.Next() {
		t.Fatal("no first delta")
	}
	if err := s.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	if s.Next() {
		t.Error("Next after Close returned true")
	}
	if s.Err() != nil {
		t.Errorf("Err after Close = %v", s.Err())
	}
}

func TestDelayPacesChunks(t *testing.T) {
	t.Parallel()
	const delay, first = 2 * time.Millisecond, 30 * time.Millisecond
	p := New(Options{Delay: delay, FirstDelay: first, ChunkSize: 64})
	start := time.Now()
	ds := collect(t, p, request(user("hello")))
	content := 0
	for _, d := range ds {
		if d.Kind == provider.DeltaText {
			content++
		}
	}
	// Timers never fire early, so this lower bound cannot flake.
	if min := first + time.Duration(content)*delay; time.Since(start) < min {
		t.Fatalf("%d chunks streamed in %v, want at least %v", content, time.Since(start), min)
	}
}

func TestNoToolsOffered(t *testing.T) {
	t.Parallel()
	req := provider.Request{Messages: []provider.Message{user("read go.mod")}}
	ds := collect(t, New(Options{}), req)
	acc := accumulate(ds)
	if len(acc.ToolCalls()) != 0 || acc.Finish() != provider.FinishStop {
		t.Fatalf("called tools that were not offered: %+v", acc.ToolCalls())
	}
	if !strings.Contains(acc.Text(), "read_file") {
		t.Errorf("text does not say what it would have called: %q", acc.Text())
	}
}

func TestUsageCachesPreviousPrompt(t *testing.T) {
	t.Parallel()
	big := strings.Repeat("system prompt ", 800) // about 2800 tokens
	first := []provider.Message{{Role: provider.RoleSystem, Content: big}, user("read a.go")}
	u1 := usageOf(t, first)
	if u1.CachedPromptTokens != 0 {
		t.Errorf("first request cached %d tokens, want 0", u1.CachedPromptTokens)
	}
	second := append(first,
		provider.Message{Role: provider.RoleAssistant, ToolCalls: []provider.ToolCall{{ID: "call_read_0", Name: "read_file", Arguments: `{"path":"a.go"}`}}},
		provider.Message{Role: provider.RoleTool, ToolCallID: "call_read_0", Content: "1\tpackage a"})
	u2 := usageOf(t, second)
	if u2.PromptTokens <= u1.PromptTokens {
		t.Errorf("prompt tokens did not grow: %d then %d", u1.PromptTokens, u2.PromptTokens)
	}
	if u2.CachedPromptTokens == 0 || u2.CachedPromptTokens > u1.PromptTokens || u2.CachedPromptTokens%cacheBlock != 0 {
		t.Errorf("cached = %d, want a multiple of %d up to the previous prompt (%d)", u2.CachedPromptTokens, cacheBlock, u1.PromptTokens)
	}
}

func usageOf(t *testing.T, msgs []provider.Message) provider.Usage {
	t.Helper()
	u, ok := accumulate(collect(t, New(Options{}), request(msgs...))).Usage()
	if !ok {
		t.Fatal("no usage delta")
	}
	return u
}

func TestChunksKeepRunes(t *testing.T) {
	t.Parallel()
	s := "héllo → wörld, 日本語のテキスト"
	for size := 1; size <= 8; size++ {
		cs := chunks(s, size)
		if strings.Join(cs, "") != s {
			t.Fatalf("size %d: chunks do not rejoin", size)
		}
		for _, c := range cs {
			if n := len([]rune(c)); n < 1 || n > size {
				t.Fatalf("size %d: chunk %q has %d runes", size, c, n)
			}
		}
	}
}
