package agent

import (
	"context"
	"encoding/json"
	"errors"
	"strings"

	"github.com/ternhq/tern/provider"
	"github.com/ternhq/tern/tools"
)

// ProposePlanTool is the tool the model presents its plan with in plan
// mode; it is offered only then. Its one parameter, "plan", is the plan in
// Markdown. A turn that proposed a plan ends with it: the user accepts it
// or asks for changes.
const ProposePlanTool = "propose_plan"

// proposePlanSchema is a constant so the specs stay byte-identical from
// one plan-mode request to the next.
var proposePlanSchema = json.RawMessage(`{"type":"object","properties":{"plan":{"type":"string",` +
	`"description":"The plan in Markdown: the files to change and how, in numbered steps, and how to check the result."}},` +
	`"required":["plan"],"additionalProperties":false}`)

// proposePlan is the propose_plan tool. It changes nothing; its call is
// the plan, which interfaces show as a card of its own.
type proposePlan struct{}

// Spec describes propose_plan to the model.
func (proposePlan) Spec() tools.Spec {
	return tools.Spec{
		Name: ProposePlanTool,
		Description: "Plan mode only: present your finished plan to the user, who will accept it (you are then told to carry it out) " +
			"or ask for changes. Call it once, when your investigation is done, instead of writing the plan in your answer; the turn ends with it.",
		Parameters: proposePlanSchema,
	}
}

// Kind is KindRead: proposing a plan changes nothing, so it never asks.
func (proposePlan) Kind() tools.Kind { return tools.KindRead }

// Preview is the plan's first line.
func (proposePlan) Preview(_ context.Context, args json.RawMessage) (tools.Preview, error) {
	plan, err := PlanOf(args)
	if err != nil {
		return tools.Preview{}, err
	}
	return tools.Preview{Title: "plan: " + firstPlanLine(plan)}, nil
}

// Run accepts the plan; the interface shows it from the call's arguments.
func (proposePlan) Run(_ context.Context, args json.RawMessage, _ func(string)) tools.Result {
	if _, err := PlanOf(args); err != nil {
		return tools.Result{Status: tools.StatusError, Output: err.Error(), Summary: "no plan"}
	}
	return tools.Result{Status: tools.StatusOK, Summary: "plan proposed",
		Output: "The plan is shown to the user, who will accept it or ask for changes. Stop here."}
}

// PlanOf reads the plan from propose_plan's arguments.
func PlanOf(args json.RawMessage) (string, error) {
	var a struct {
		Plan string `json:"plan"`
	}
	if err := json.Unmarshal(args, &a); err != nil {
		return "", errors.New("propose_plan takes {\"plan\": \"<the plan in Markdown>\"}")
	}
	if strings.TrimSpace(a.Plan) == "" {
		return "", errors.New("the plan is empty: pass the whole plan in Markdown as \"plan\"")
	}
	return a.Plan, nil
}

func firstPlanLine(plan string) string {
	for l := range strings.SplitSeq(plan, "\n") {
		if l = strings.TrimSpace(strings.TrimLeft(l, "#>*- ")); l != "" {
			return clip(l, 80)
		}
	}
	return ""
}

// toolSpecs are the tools the next request offers: the registry's, and
// propose_plan in plan mode. a.mu must be held.
func (a *Agent) toolSpecsLocked() []provider.ToolSpec {
	if !a.plan.on {
		return a.specs
	}
	s := proposePlan{}.Spec()
	return append(append([]provider.ToolSpec(nil), a.specs...),
		provider.ToolSpec{Name: s.Name, Description: s.Description, Parameters: s.Parameters})
}

// lookupTool finds a call's tool: the registry's, or propose_plan while
// plan mode is on (outside it the model is told there is no such tool).
func (a *Agent) lookupTool(name string) (tools.Tool, bool) {
	if t, ok := a.opts.Tools.Get(name); ok {
		return t, true
	}
	if name == TaskTool && a.task != nil {
		return *a.task, true
	}
	if name == ProposePlanTool && a.Planning() {
		return proposePlan{}, true
	}
	return a.externalTool(name)
}
