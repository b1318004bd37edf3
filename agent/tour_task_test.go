package agent

import (
	"strings"
	"testing"

	"github.com/ternhq/tern/provider"
	"github.com/ternhq/tern/provider/mock"
)

// tourBaseline is what the parent sent on the 20-step tour before
// subagents (issue 17): the bytes the delegated tour is measured against.
const tourBaseline = 919092

// TestTwentyStepTourDelegated runs the same tour with the parent handing
// the exploration to a subagent (the task tool), and reports the parent's
// and the child's figures as TestTwentyStepTour does. The parent must send
// at least 40% fewer bytes than the baseline, every transition of both
// conversations must keep its prefix byte for byte, and the final answer
// must name the same files and lines as the direct tour's.
func TestTwentyStepTourDelegated(t *testing.T) {
	t.Parallel()
	direct, drec := tourHarness(t, nil)
	devs := direct.turn("tour the code", nil)
	want := finalText(t, devs)
	d := tourReport(t, drec.requests(), eventsOf(devs, EventRequest))

	h, rec := tourHarness(t, func(o *Options) { o.Subagents = &Subagents{} })
	evs := h.turn("delegate: tour the code", nil)
	fin := finishOf(t, evs)
	if fin.Reason != FinishDone {
		t.Fatalf("finish %+v", fin)
	}
	var parentSent, childSent []provider.Request
	for _, r := range rec.requests() {
		if strings.Contains(r.Messages[0].Content, subagentNote) {
			childSent = append(childSent, r)
		} else {
			parentSent = append(parentSent, r)
		}
	}
	var childReqs []Event
	for _, ev := range eventsOf(evs, EventSubagent) {
		if ev.Sub.Kind == EventRequest {
			childReqs = append(childReqs, *ev.Sub)
		}
	}
	parentReqs := eventsOf(evs, EventRequest)
	p := tourReport(t, parentSent, parentReqs)
	c := tourReport(t, childSent, childReqs)
	t.Logf("direct tour: %d bytes sent (the issue's baseline: %d)", d.total, tourBaseline)
	t.Logf("delegated tour, parent: %d requests, %d bytes sent (%.1f%% less than the direct tour), tool results %.0f%%, sent again %.0f%%, prefix stable in %d of %d",
		len(parentReqs), p.total, 100-100*float64(p.total)/float64(d.total),
		100*float64(p.tool)/float64(p.total), 100*float64(p.repeated)/float64(p.total), p.stable, len(parentReqs)-1)
	t.Logf("delegated tour, child: %d requests, %d bytes sent, tool results %.0f%%, sent again %.0f%%, prefix stable in %d of %d; parent and child together %d bytes",
		len(childReqs), c.total, 100*float64(c.tool)/float64(c.total), 100*float64(c.repeated)/float64(c.total), c.stable, len(childReqs)-1, p.total+c.total)
	if len(childReqs) != mock.TourSteps {
		t.Errorf("the child made %d requests, want the tour's %d", len(childReqs), mock.TourSteps)
	}
	if p.total > min(tourBaseline, d.total)*6/10 {
		t.Errorf("the parent sent %d bytes, not 40%% less than the direct tour's %d", p.total, d.total)
	}
	if p.stable != len(parentReqs)-1 || c.stable != len(childReqs)-1 {
		t.Errorf("the prefix changed: parent stable in %d of %d, child in %d of %d", p.stable, len(parentReqs)-1, c.stable, len(childReqs)-1)
	}
	if got := finalText(t, evs); got != want {
		t.Errorf("the delegated tour's answer differs from the direct tour's:\n%s\nwant\n%s", got, want)
	}
}

// finalText is the text of the turn's last answer.
func finalText(t *testing.T, evs []Event) string {
	t.Helper()
	var b strings.Builder
	for _, ev := range evs {
		if ev.Kind == EventTextDelta {
			b.WriteString(ev.Text)
		}
		if ev.Kind == EventToolCallStarted {
			b.Reset() // an answer with calls is not the last
		}
	}
	return strings.TrimSpace(b.String())
}
