package openai

import (
	"encoding/json"
	"slices"
	"strings"
)

// entryImages reads whether a model list entry says the model takes image
// input; nil when it does not say. Gateways say it in several shapes:
// OpenRouter's architecture.input_modalities (["text","image"]) and
// architecture.modality ("text+image->text"), a top-level
// input_modalities, LiteLLM's supports_vision, Mistral's capabilities
// object ({"vision": true}), a capabilities list (["completion","vision"]),
// and LM Studio's type ("vlm" or "llm").
func entryImages(e map[string]json.RawMessage) *bool {
	var arch map[string]json.RawMessage
	if json.Unmarshal(e["architecture"], &arch) == nil {
		if v := modalities(arch["input_modalities"]); v != nil {
			return v
		}
		var modality string
		if json.Unmarshal(arch["modality"], &modality) == nil && strings.Contains(modality, "->") {
			in, _, _ := strings.Cut(modality, "->")
			return ptr(slices.Contains(strings.Split(strings.ToLower(in), "+"), "image"))
		}
	}
	if v := modalities(e["input_modalities"]); v != nil {
		return v
	}
	var b bool
	if json.Unmarshal(e["supports_vision"], &b) == nil {
		return ptr(b)
	}
	var caps map[string]json.RawMessage
	if json.Unmarshal(e["capabilities"], &caps) == nil {
		if json.Unmarshal(caps["vision"], &b) == nil {
			return ptr(b)
		}
	}
	var list []string
	if json.Unmarshal(e["capabilities"], &list) == nil && len(list) > 0 {
		return ptr(slices.ContainsFunc(list, func(c string) bool { return strings.EqualFold(c, "vision") }))
	}
	var typ string
	if json.Unmarshal(e["type"], &typ) == nil {
		switch typ {
		case "vlm":
			return ptr(true)
		case "llm":
			return ptr(false)
		}
	}
	return nil
}

// modalities reads a list of input modalities: whether it names image;
// nil when raw is no list of names.
func modalities(raw json.RawMessage) *bool {
	var list []string
	if len(raw) == 0 || json.Unmarshal(raw, &list) != nil || len(list) == 0 {
		return nil
	}
	return ptr(slices.ContainsFunc(list, func(m string) bool { return strings.EqualFold(m, "image") }))
}

func ptr(b bool) *bool { return &b }
