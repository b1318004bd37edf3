package highlight

// Data and style formats: JSON, TOML, INI, CSS, and the descriptions of the
// formats that have a scanner of their own.

var jsonLang = lang{
	lineComments:  slashComments,
	blockComments: cBlock,
	strs:          []strRule{dqString},
	types:         "true false null",
	opChars:       ":",
	flags:         fKeyName | fSignedNum,
}

var tomlLang = lang{
	lineComments: hashComments,
	strs: []strRule{
		{open: `"""`, close: `"""`, esc: '\\', multi: true},
		{open: `'''`, close: `'''`, multi: true},
		dqString,
		{open: `'`, close: `'`},
	},
	types:     "true false inf nan",
	opChars:   "=",
	identPart: "-",
	flags:     fLineKey | fSection | fSignedNum,
}

var iniLang = lang{
	lineComments: []string{";", "#"},
	strs:         []strRule{dqString},
	types:        "true false yes no on off",
	opChars:      "=:",
	identPart:    "-.",
	flags:        fLineKey | fSection,
}

const (
	cssTypes    = "auto none inherit initial unset revert normal bold italic block inline inline-block flex grid absolute relative fixed sticky hidden visible solid dashed dotted transparent currentColor center left right top bottom"
	cssBuiltins = "rgb rgba hsl hsla var calc min max clamp url attr linear-gradient radial-gradient translate translateX translateY rotate scale"
)

var cssLang = lang{
	blockComments: cBlock,
	strs:          cStrings,
	keywords:      "important",
	types:         cssTypes,
	builtins:      cssBuiltins,
	opChars:       ":>+~*=",
	identStart:    "-",
	identPart:     "-",
	flags:         fCSS | fAtMeta | fCallName,
}

var scssLang = lang{
	lineComments:  slashComments,
	blockComments: cBlock,
	strs:          cStrings,
	keywords:      "important if else each for while mixin include extend function return use forward",
	types:         cssTypes,
	builtins:      cssBuiltins,
	opChars:       ":>+~*=&",
	identStart:    "-",
	identPart:     "-",
	flags:         fCSS | fAtMeta | fCallName | fDollarVar,
}

// The formats with a scanner of their own (diff.go, console.go,
// markdown.go, dockerfile.go, markup.go, yaml.go).
var (
	diffLang     = lang{mode: diffMode}
	consoleLang  = lang{mode: consoleMode}
	markdownLang = lang{mode: markdownMode}
	dockerLang   = lang{mode: dockerMode}
	markupLang   = lang{mode: markupMode}
	yamlLang     = lang{mode: yamlMode}
	// yamlValue is how yaml reads what follows a key.
	yamlValue = lang{
		lineComments: []string{"#"},
		strs: []strRule{
			dqString,
			{open: `'`, close: `'`, double: true},
		},
		types:      "true false null yes no on off True False Null TRUE FALSE NULL ~",
		opChars:    ":|>",
		identPart:  "-./",
		identStart: "~/",
		flags:      fSignedNum | fSpacedComment,
	}
)
