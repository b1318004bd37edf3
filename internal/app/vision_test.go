package app

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/ternhq/tern/provider"
	"github.com/ternhq/tern/provider/models"
	"github.com/ternhq/tern/tools"
)

// TestAcceptsImages: config.toml's vision wins, then what the gateway's
// model list says, then the model database; a model none knows is
// assumed to take images. A model that does not
// gets no images: the message is refused, saying how to fix it.
func TestAcceptsImages(t *testing.T) {
	t.Parallel()
	yes, no := true, false
	for _, tc := range []struct {
		name   string
		vision *bool
		// gateway is what the model list says (nil: nothing).
		gateway *bool
		info    *models.Info
		want    bool
		source  string
	}{
		{"configured on", &yes, &no, &models.Info{Images: false}, true, "vision in config.toml"},
		{"configured off", &no, &yes, &models.Info{Images: true}, false, "vision in config.toml"},
		{"the gateway says no", nil, &no, &models.Info{Images: true}, false, "the gateway's model list"},
		{"the gateway says yes", nil, &yes, &models.Info{Images: false}, true, "the gateway's model list"},
		{"the database says yes", nil, nil, &models.Info{Images: true}, true, "the model database"},
		{"the database says no", nil, nil, &models.Info{Images: false}, false, "the model database"},
		{"unknown", nil, nil, nil, true, "unknown; assumed"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			ws, err := tools.NewWorkspace(t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			opts := testOptions(t, t.TempDir(), ws)
			opts.Vision = func(string) *bool { return tc.vision }
			opts.ModelInfo = func(string) (models.Info, bool) {
				if tc.info == nil {
					return models.Info{}, false
				}
				return *tc.info, true
			}
			opts.LookupModel = func(context.Context, string) (GatewayModel, error) {
				return GatewayModel{Images: tc.gateway}, nil
			}
			s := newTestSession(t, opts)
			// The model list is read in the background once the model is
			// set; AcceptsImages never waits for it.
			deadline := time.Now().Add(5 * time.Second)
			ok, src := s.AcceptsImages("m")
			for (ok != tc.want || src != tc.source) && time.Now().Before(deadline) {
				time.Sleep(time.Millisecond)
				ok, src = s.AcceptsImages("m")
			}
			if ok != tc.want || src != tc.source {
				t.Errorf("AcceptsImages = %v, %q", ok, src)
			}
			if tc.want {
				return
			}
			err = s.SubmitImages("look", []provider.Image{{MediaType: "image/png", Data: []byte{1}}})
			if err == nil || !strings.Contains(err.Error(), "does not accept images") || !strings.Contains(err.Error(), `[models."m"]`) {
				t.Errorf("SubmitImages = %v", err)
			}
		})
	}
}
