package tools

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"sync"
	"testing"
)

func TestTodoWrite(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name        string
		args        string
		status      Status
		output      string // exact output for ok calls; a fragment for errors
		summary     string
		wantItems   []TodoItem
		keepsBefore bool // an error leaves the earlier list in place
	}{
		{
			name:    "three items",
			args:    `{"items":[{"text":"read the code","status":"done"},{"text":"fix the bug","status":"in_progress"},{"text":"run the tests","status":"pending"}]}`,
			status:  StatusOK,
			output:  "[x] read the code\n[~] fix the bug\n[ ] run the tests",
			summary: "3 items, 1 done",
			wantItems: []TodoItem{
				{"read the code", TodoDone}, {"fix the bug", TodoInProgress}, {"run the tests", TodoPending},
			},
		},
		{
			name:      "one item, text trimmed",
			args:      `{"items":[{"text":"  ship it \n","status":"done"}]}`,
			status:    StatusOK,
			output:    "[x] ship it",
			summary:   "1 item, 1 done",
			wantItems: []TodoItem{{"ship it", TodoDone}},
		},
		{
			name:      "empty list clears",
			args:      `{"items":[]}`,
			status:    StatusOK,
			output:    "The todo list is empty.",
			summary:   "0 items, 0 done",
			wantItems: []TodoItem{},
		},
		{
			name:    "two in progress warns but succeeds",
			args:    `{"items":[{"text":"a","status":"in_progress"},{"text":"b","status":"in_progress"}]}`,
			status:  StatusOK,
			output:  "[~] a\n[~] b\nNote: 2 items are in_progress; keep one in progress at a time.",
			summary: "2 items, 0 done",
			wantItems: []TodoItem{
				{"a", TodoInProgress}, {"b", TodoInProgress},
			},
		},
		{
			name:      "control characters and newlines go",
			args:      `{"items":[{"text":"evil \u001b[2Jclear\nnext\tline","status":"pending"}]}`,
			status:    StatusOK,
			output:    "[ ] evil [2Jclear next line",
			summary:   "1 item, 0 done",
			wantItems: []TodoItem{{"evil [2Jclear next line", TodoPending}},
		},
		{name: "only control characters", args: `{"items":[{"text":"\u001b\u0007","status":"done"}]}`, status: StatusError, output: "item 1 has no text", keepsBefore: true},
		{name: "bad status", args: `{"items":[{"text":"a","status":"started"}]}`, status: StatusError, output: `has status "started"`, keepsBefore: true},
		{name: "empty text", args: `{"items":[{"text":"  ","status":"done"}]}`, status: StatusError, output: "item 1 has no text", keepsBefore: true},
		{name: "no items field", args: `{}`, status: StatusError, output: `missing required field "items"`, keepsBefore: true},
		{name: "not JSON", args: `{"items":`, status: StatusError, output: "invalid arguments", keepsBefore: true},
		{name: "too many", args: `{"items":[` + strings.Repeat(`{"text":"x","status":"pending"},`, todoMaxItems) + `{"text":"x","status":"pending"}]}`, status: StatusError, output: "too many", keepsBefore: true},
	}
	before := []TodoItem{{"earlier", TodoPending}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			tool := NewTodoWrite().(*TodoTool)
			tool.Run(context.Background(), json.RawMessage(`{"items":[{"text":"earlier","status":"pending"}]}`), nil)
			res := tool.Run(context.Background(), json.RawMessage(tt.args), nil)
			if res.Status != tt.status {
				t.Fatalf("status = %v (%s), want %v", res.Status, res.Output, tt.status)
			}
			if tt.status == StatusOK {
				if res.Output != tt.output || res.Summary != tt.summary {
					t.Fatalf("got %q / %q, want %q / %q", res.Output, res.Summary, tt.output, tt.summary)
				}
			} else if !strings.Contains(res.Output, tt.output) {
				t.Fatalf("error %q does not say %q", res.Output, tt.output)
			}
			want := tt.wantItems
			if tt.keepsBefore {
				want = before
			}
			if got := tool.Items(); !reflect.DeepEqual(got, want) && (len(got) != 0 || len(want) != 0) {
				t.Fatalf("Items() = %v, want %v", got, want)
			}
		})
	}
}

func TestTodoSchemaValidates(t *testing.T) {
	t.Parallel()
	tool := NewTodoWrite()
	if tool.Kind() != KindRead {
		t.Fatalf("kind = %v, want read (no approval)", tool.Kind())
	}
	spec := tool.Spec()
	if spec.Name != "todo_write" {
		t.Fatalf("name = %q", spec.Name)
	}
	tests := []struct {
		args string
		ok   bool
	}{
		{`{"items":[{"text":"a","status":"pending"}]}`, true},
		{`{"items":[]}`, true},
		{`{"items":[{"text":"a","status":"later"}]}`, false},
		{`{"items":[{"text":"a"}]}`, false},
		{`{"items":[{"text":"a","status":"done","extra":1}]}`, false},
		{`{"items":"a"}`, false},
		{`{}`, false},
	}
	for _, tt := range tests {
		if err := Validate(spec.Parameters, json.RawMessage(tt.args)); (err == nil) != tt.ok {
			t.Errorf("Validate(%s) = %v, want ok=%v", tt.args, err, tt.ok)
		}
	}
}

func TestTodoPreviewAndHelpers(t *testing.T) {
	t.Parallel()
	p, err := NewTodoWrite().Preview(context.Background(), json.RawMessage(`{"items":[{"text":"a","status":"done"},{"text":"b","status":"pending"}]}`))
	if err != nil || p.Title != "todo list: 2 items, 1 done" {
		t.Fatalf("Preview = %+v, %v", p, err)
	}
	if _, err := NewTodoWrite().Preview(context.Background(), json.RawMessage(`{"items":[{"text":"","status":"done"}]}`)); err == nil {
		t.Fatal("Preview accepted an empty item")
	}
	open := []struct {
		items []TodoItem
		want  bool
	}{
		{nil, false},
		{[]TodoItem{{"a", TodoDone}}, false},
		{[]TodoItem{{"a", TodoDone}, {"b", TodoPending}}, true},
		{[]TodoItem{{"a", TodoInProgress}}, true},
	}
	for _, tt := range open {
		if got := TodoOpen(tt.items); got != tt.want {
			t.Errorf("TodoOpen(%v) = %v, want %v", tt.items, got, tt.want)
		}
	}
}

func TestTodoConcurrent(t *testing.T) {
	t.Parallel()
	tool := NewTodoWrite().(*TodoTool)
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(2)
		go func() {
			defer wg.Done()
			tool.Run(context.Background(), json.RawMessage(`{"items":[{"text":"a","status":"pending"}]}`), nil)
		}()
		go func() {
			defer wg.Done()
			_ = tool.Items()
		}()
	}
	wg.Wait()
	if got := tool.Items(); len(got) != 1 {
		t.Fatalf("Items() = %v", got)
	}
}
