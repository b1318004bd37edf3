package tui

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/ternhq/tern/agent"
	"github.com/ternhq/tern/internal/sanitize"
)

// cmdPlan runs /plan [request]: it enters plan mode (and sends the request,
// if given), or leaves it when it is on.
func (m *model) cmdPlan(args string) tea.Cmd {
	if m.be.Planning() {
		m.leavePlan()
		return nil
	}
	m.be.EnterPlan()
	m.planning, m.planOffer = true, false
	th := m.rc.th
	m.tr.end()
	m.tr.add(&noticeBlock{lines: []string{
		th.accent.Render("◇ Plan mode:") + " the model reads and plans; edits and commands are refused.",
		th.dim.Render("  Accept its plan to carry it out, or keep planning. /plan again leaves."),
	}, hangs: []int{2, 2}})
	if args == "" {
		m.setNotice("plan mode: describe what you want planned", false)
		return nil
	}
	if m.busy {
		m.queued = append(m.queued, args)
		return nil
	}
	return m.dispatch(args)
}

// leavePlan ends plan mode without accepting a plan.
func (m *model) leavePlan() {
	pol := m.be.LeavePlan()
	m.planning, m.planOffer = false, false
	m.setNotice("left plan mode · approval policy: "+pol.String(), false)
}

// offerPlan opens the accept offer when a turn in plan mode ended after
// the model presented a plan (propose_plan), and nothing the user typed is
// waiting to be sent: an answer without a plan (a question, a refusal)
// offers nothing to carry out.
func (m *model) offerPlan(reason agent.FinishReason) {
	proposed := m.planProposed
	m.planProposed = false
	if !m.planning || reason != agent.FinishDone || !proposed || len(m.queued) > 0 {
		return
	}
	if !m.be.Planning() {
		m.planning = false
		return
	}
	m.planOffer = true
}

// onPlanOfferKey answers the offer: 1, enter or y accepts under the policy
// from before plan mode, 2 accepts with auto-edit, 3 or n keeps planning,
// esc leaves plan mode. Any other key keeps planning and goes on to the
// input (handled is false), so typing a correction just works.
func (m *model) onPlanOfferKey(k tea.KeyPressMsg) (tea.Cmd, bool) {
	pk := &m.keys.Plan
	var policy agent.Policy // 0: the policy from before plan mode
	switch {
	case key.Matches(k, pk.AcceptAutoEdit):
		policy = agent.PolicyAutoEdit
		fallthrough
	case key.Matches(k, pk.Accept, m.keys.Choose):
		m.planOffer = false
		if m.busy {
			m.setNotice("the agent is working: accept the plan when it is done", true)
			return nil, true
		}
		if err := m.be.AcceptPlan(policy); err != nil {
			m.setNotice("plan: "+err.Error(), true)
			return nil, true
		}
		m.planning = false
		m.tr.add(&userBlock{text: "Plan accepted: carry it out."})
		m.busy, m.awaiting = true, true
		m.turnStart = m.rc.now
		m.setNotice("plan accepted · approval policy: "+m.be.Policy().String(), false)
		return m.scheduleFrame(spinnerEvery), true
	case key.Matches(k, pk.Keep):
		m.planOffer = false
		m.setNotice("still planning: say what to change in the plan", false)
		return nil, true
	case key.Matches(k, pk.Leave):
		m.leavePlan()
		return nil, true
	case key.Matches(k, m.keys.Clear):
		m.planOffer = false
		return nil, false
	}
	m.planOffer = false
	return nil, false
}

// planOfferView is the offer, shown above the input while it is open.
func (m *model) planOfferView() []string {
	if !m.planOffer || m.dlg != nil {
		return nil
	}
	th := m.rc.th
	pk := &m.keys.Plan
	bar := th.accent.Render("▌") + " "
	offer := firstKey(pk.Accept) + " accept, policy " + m.planPrevPolicy() + " · " +
		firstKey(pk.AcceptAutoEdit) + " " + pk.AcceptAutoEdit.Help().Desc + " · " + firstKey(pk.Keep) + " " + pk.Keep.Help().Desc
	return []string{
		bar + th.bold.Render(truncate("The model presented a plan. Carry it out?", m.width-2)),
		bar + truncate(offer, m.width-2),
		bar + th.dim.Render(truncate(firstKey(m.keys.Choose)+" accepts · "+helpText(pk.Leave)+" · typing keeps planning", m.width-2)),
	}
}

// planPrevPolicy names the policy accepting the plan brings back.
func (m *model) planPrevPolicy() string {
	return m.be.PlanPolicy().String()
}

// policyLabel is the status line's policy: "plan" while planning.
func (m *model) policyLabel() string {
	if m.planning {
		return "plan (read-only)"
	}
	return m.be.Policy().String()
}

// promptBlock shows a prompt the agent reports (a resumed session's, or
// one sent for us): plan mode's notes and the note about reverted files
// become chips.
func promptBlock(text string) *userBlock {
	chip := ""
	reverted := agent.HasRevertNote(text)
	note, text := agent.SplitPlanNote(text)
	switch note {
	case agent.PlanEnterNote:
		chip = "plan mode"
	case agent.PlanLeaveNote:
		chip = "plan mode over"
		if text == agent.PlanAccepted {
			text = "Plan accepted: carry it out."
		}
	}
	b := &userBlock{text: sanitize.Clean(text)}
	if chip != "" {
		b.chips = []string{chip}
	}
	if reverted {
		b.chips = append(b.chips, "files reverted")
	}
	return b
}
