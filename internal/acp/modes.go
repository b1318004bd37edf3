package acp

import (
	sdk "github.com/coder/acp-go-sdk"

	"github.com/ternhq/tern/agent"
	"github.com/ternhq/tern/internal/app"
)

// modePlan is plan mode's id; the others are the approval policies' names.
const modePlan sdk.SessionModeId = "plan"

// sessionModes are the session modes tern offers: its approval policies and
// plan mode.
func sessionModes(current sdk.SessionModeId) *sdk.SessionModeState {
	d := func(s string) *string { return &s }
	return &sdk.SessionModeState{
		CurrentModeId: current,
		AvailableModes: []sdk.SessionMode{
			{Id: sdk.SessionModeId(agent.PolicyAsk.String()), Name: "Ask", Description: d("Ask before edits, file writes and shell commands")},
			{Id: sdk.SessionModeId(agent.PolicyAutoEdit.String()), Name: "Auto-edit", Description: d("Edit files in the workspace freely; ask before shell commands")},
			{Id: sdk.SessionModeId(agent.PolicyFullAuto.String()), Name: "Full auto", Description: d("Ask only for the always-ask commands")},
			{Id: sdk.SessionModeId(agent.PolicyReadOnly.String()), Name: "Read-only", Description: d("Refuse edits, file writes and shell commands")},
			{Id: modePlan, Name: "Plan", Description: d("Investigate read-only and propose a plan")},
		},
	}
}

// currentMode is the mode a session is in.
func currentMode(s app.Service) sdk.SessionModeId {
	if s.Planning() {
		return modePlan
	}
	return sdk.SessionModeId(s.Policy().String())
}

// setMode switches s to mode; false for a mode tern does not have.
func setMode(s app.Service, mode sdk.SessionModeId) bool {
	if mode == modePlan {
		s.EnterPlan()
		return true
	}
	p, err := agent.ParsePolicy(string(mode))
	if err != nil {
		return false
	}
	if s.Planning() {
		s.LeavePlan()
	}
	s.SetPolicy(p)
	return true
}
