package styles

import "github.com/alecthomas/chroma/v2"

// Present for backwards compatibility.
//
// Deprecated: use styles.Get(name) instead.
var (
	Abap                *chroma.Style
	Algol               *chroma.Style
	AlgolNu             *chroma.Style
	Arduino             *chroma.Style
	Autumn              *chroma.Style
	Average             *chroma.Style
	Base16Snazzy        *chroma.Style
	Borland             *chroma.Style
	BlackWhite          *chroma.Style
	CatppuccinFrappe    *chroma.Style
	CatppuccinLatte     *chroma.Style
	CatppuccinMacchiato *chroma.Style
	CatppuccinMocha     *chroma.Style
	Colorful            *chroma.Style
	DoomOne             *chroma.Style
	DoomOne2            *chroma.Style
	Dracula             *chroma.Style
	Emacs               *chroma.Style
	Friendly            *chroma.Style
	Fruity              *chroma.Style
	GitHubDark          *chroma.Style
	GitHub              *chroma.Style
	GruvboxLight        *chroma.Style
	Gruvbox             *chroma.Style
	HrDark              *chroma.Style
	HrHighContrast      *chroma.Style
	Igor                *chroma.Style
	Lovelace            *chroma.Style
	Manni               *chroma.Style
	ModusOperandi       *chroma.Style
	ModusVivendi        *chroma.Style
	Monokai             *chroma.Style
	MonokaiLight        *chroma.Style
	Murphy              *chroma.Style
	Native              *chroma.Style
	Nord                *chroma.Style
	OnesEnterprise      *chroma.Style
	ParaisoDark         *chroma.Style
	ParaisoLight        *chroma.Style
	Pastie              *chroma.Style
	Perldoc             *chroma.Style
	Pygments            *chroma.Style
	RainbowDash         *chroma.Style
	RosePineDawn        *chroma.Style
	RosePineMoon        *chroma.Style
	RosePine            *chroma.Style
	Rrt                 *chroma.Style
	SolarizedDark       *chroma.Style
	SolarizedDark256    *chroma.Style
	SolarizedLight      *chroma.Style
	SwapOff             *chroma.Style
	Tango               *chroma.Style
	Trac                *chroma.Style
	Vim                 *chroma.Style
	VisualStudio        *chroma.Style
	Vulcan              *chroma.Style
	WitchHazel          *chroma.Style
	XcodeDark           *chroma.Style
	Xcode               *chroma.Style
)

// setCompat sets the variables above (tern: once the registry is filled).
func setCompat() {
	Abap = Registry["abap"]
	Algol = Registry["algol"]
	AlgolNu = Registry["algol_nu"]
	Arduino = Registry["arduino"]
	Autumn = Registry["autumn"]
	Average = Registry["average"]
	Base16Snazzy = Registry["base16-snazzy"]
	Borland = Registry["borland"]
	BlackWhite = Registry["bw"]
	CatppuccinFrappe = Registry["catppuccin-frappe"]
	CatppuccinLatte = Registry["catppuccin-latte"]
	CatppuccinMacchiato = Registry["catppuccin-macchiato"]
	CatppuccinMocha = Registry["catppuccin-mocha"]
	Colorful = Registry["colorful"]
	DoomOne = Registry["doom-one"]
	DoomOne2 = Registry["doom-one2"]
	Dracula = Registry["dracula"]
	Emacs = Registry["emacs"]
	Friendly = Registry["friendly"]
	Fruity = Registry["fruity"]
	GitHubDark = Registry["github-dark"]
	GitHub = Registry["github"]
	GruvboxLight = Registry["gruvbox-light"]
	Gruvbox = Registry["gruvbox"]
	HrDark = Registry["hrdark"]
	HrHighContrast = Registry["hr_high_contrast"]
	Igor = Registry["igor"]
	Lovelace = Registry["lovelace"]
	Manni = Registry["manni"]
	ModusOperandi = Registry["modus-operandi"]
	ModusVivendi = Registry["modus-vivendi"]
	Monokai = Registry["monokai"]
	MonokaiLight = Registry["monokailight"]
	Murphy = Registry["murphy"]
	Native = Registry["native"]
	Nord = Registry["nord"]
	OnesEnterprise = Registry["onesenterprise"]
	ParaisoDark = Registry["paraiso-dark"]
	ParaisoLight = Registry["paraiso-light"]
	Pastie = Registry["pastie"]
	Perldoc = Registry["perldoc"]
	Pygments = Registry["pygments"]
	RainbowDash = Registry["rainbow_dash"]
	RosePineDawn = Registry["rose-pine-dawn"]
	RosePineMoon = Registry["rose-pine-moon"]
	RosePine = Registry["rose-pine"]
	Rrt = Registry["rrt"]
	SolarizedDark = Registry["solarized-dark"]
	SolarizedDark256 = Registry["solarized-dark256"]
	SolarizedLight = Registry["solarized-light"]
	SwapOff = Registry["swapoff"]
	Tango = Registry["tango"]
	Trac = Registry["trac"]
	Vim = Registry["vim"]
	VisualStudio = Registry["vs"]
	Vulcan = Registry["vulcan"]
	WitchHazel = Registry["witchhazel"]
	XcodeDark = Registry["xcode-dark"]
	Xcode = Registry["xcode"]
}
