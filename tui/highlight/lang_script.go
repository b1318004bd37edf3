package highlight

// Scripting languages and the other languages with # or -- comments.

var hashComments = []string{"#"}

var pythonLang = lang{
	lineComments: hashComments,
	strs: []strRule{
		{open: `"""`, close: `"""`, esc: '\\', multi: true},
		{open: `'''`, close: `'''`, esc: '\\', multi: true},
		dqString, sqString,
	},
	strPrefixes: "r u b f br rb fr rf t",
	keywords:    "and as assert async await break continue del elif else except finally for from global if import in is lambda nonlocal not or pass raise return try while with yield match case",
	defs:        "def class",
	types:       "True False None NotImplemented Ellipsis int float str bytes bool list dict set tuple object complex frozenset bytearray type self cls",
	builtins:    "abs all any ascii bin callable chr dir divmod enumerate eval exec filter format getattr globals hasattr hash help hex id input isinstance issubclass iter len locals map max min next oct open ord pow print property range repr reversed round setattr slice sorted staticmethod classmethod sum super vars zip __import__",
	ops:         "== != <= >= ** // << >> += -= *= /= //= %= **= &= |= ^= >>= <<= -> := @=",
	opChars:     "+-*/%=<>!&|^~@",
	flags:       fCallName | fAtMeta,
}

var rubyLang = lang{
	lineComments:  hashComments,
	blockComments: []pair{{"=begin", "=end"}},
	strs:          []strRule{dqString, sqString, {open: "`", close: "`", esc: '\\', multi: true}},
	keywords:      "alias and begin break case defined? do else elsif end ensure for if in next not or redo rescue retry return self super then undef unless until when while yield __FILE__ __LINE__",
	defs:          "def class module",
	types:         "true false nil Integer Float String Array Hash Symbol Object",
	builtins:      "puts print p require require_relative attr_accessor attr_reader attr_writer include extend raise loop lambda proc private protected public format sprintf",
	ops:           "== != <= >= <=> === =~ !~ && || ** << >> += -= *= /= ||= &&= .. ... => -> ::",
	opChars:       "+-*/%=<>!&|^~?",
	flags:         fCallName | fSymbol | fHeredoc | fUpperType,
}

var phpLang = lang{
	lineComments:  []string{"//", "#"},
	blockComments: cBlock,
	strs:          cStrings,
	keywords:      "abstract and as break callable case catch clone const continue declare default do echo else elseif empty enddeclare endfor endforeach endif endswitch endwhile extends final finally fn for foreach global goto if implements include include_once instanceof insteadof isset list match namespace new or print private protected public readonly require require_once return static switch throw try unset use var while xor yield",
	defs:          "function class interface trait enum",
	types:         "array bool float int mixed never null object string void true false TRUE FALSE NULL self parent",
	builtins:      "count strlen str_replace explode implode array_map array_filter array_keys in_array json_encode json_decode var_dump printf sprintf isset",
	ops:           "<?php <?= ?> == != === !== <= >= <=> && || ?? ??= -> => :: ++ -- += -= *= /= .= ** ?->",
	opChars:       "+-*/%=<>!&|^~?:.",
	flags:         fCallName | fDollarVar | fHeredoc,
}

var luaLang = lang{
	lineComments: []string{"--"},
	strs:         cStrings,
	keywords:     "and break do else elseif end for goto if in local not or repeat return then until while",
	defs:         "function",
	types:        "true false nil self",
	builtins:     "assert collectgarbage dofile error getmetatable ipairs load loadfile next pairs pcall print rawequal rawget rawlen rawset require select setmetatable tonumber tostring type xpcall string table math io os coroutine utf8",
	ops:          "== ~= <= >= .. ... // << >> ::",
	opChars:      "+-*/%^#=<>&|~",
	flags:        fCallName | fLuaLong,
}

var rLang = lang{
	lineComments: hashComments,
	strs:         []strRule{{open: `"`, close: `"`, esc: '\\', multi: true}, {open: `'`, close: `'`, esc: '\\', multi: true}, {open: "`", close: "`"}},
	keywords:     "if else repeat while function for in next break return",
	types:        "TRUE FALSE NULL NA NA_integer_ NA_real_ NA_character_ Inf NaN T F",
	builtins:     "c list library require print cat paste paste0 length sum mean median sd vector matrix data.frame apply lapply sapply seq rep names nrow ncol head tail str summary stop warning",
	ops:          "<- <<- -> ->> == != <= >= && || %% %/% %in% %>% |> ::",
	opChars:      "+-*/^=<>!&|~?:$@",
	identPart:    ".",
	flags:        fCallName,
}

var elixirLang = lang{
	lineComments: hashComments,
	strs: []strRule{
		{open: `"""`, close: `"""`, esc: '\\', multi: true},
		{open: `'''`, close: `'''`, esc: '\\', multi: true},
		{open: `"`, close: `"`, esc: '\\', multi: true},
		{open: `'`, close: `'`, esc: '\\', multi: true},
	},
	keywords: "after and catch cond do else end fn for if import in not or quote raise receive require rescue try unless unquote use when with alias case",
	defs:     "def defp defmodule defmacro defmacrop defstruct defprotocol defimpl defguard defdelegate defexception",
	types:    "true false nil",
	builtins: "IO Enum Map List String Kernel Process GenServer Agent Task spawn send self inspect is_atom is_binary is_list is_map length hd tl elem",
	ops:      "|> <> ++ -- == != === !== <= >= && || -> <- => :: ..  ~>> <<~ |||",
	opChars:  "+-*/=<>!&|^~\\",
	flags:    fCallName | fSymbol | fUpperType | fAtMeta,
}

var haskellLang = lang{
	lineComments:  []string{"--"},
	blockComments: []pair{{"{-", "-}"}},
	nest:          true,
	strs:          []strRule{dqString},
	keywords:      "as case class data default deriving do else family forall foreign hiding if import in infix infixl infixr instance let module newtype of qualified then type where",
	types:         "Int Integer Float Double Bool Char String Maybe Either IO True False Nothing Just Left Right",
	builtins:      "map filter foldr foldl print putStrLn show read return pure fmap mapM_ head tail length reverse zip concat sum",
	ops:           ":: -> <- => == /= <= >= && || ++ >>= >> <$> <*> <> $! .. \\",
	opChars:       "+-*/=<>!&|^~$.:@",
	identPart:     "'",
	flags:         fUpperType | fCharLit,
}

var nixLang = lang{
	lineComments:  hashComments,
	blockComments: cBlock,
	strs:          []strRule{{open: `"`, close: `"`, esc: '\\', multi: true}},
	keywords:      "assert else if in inherit let or rec then with",
	types:         "true false null",
	builtins:      "builtins import derivation fetchurl fetchTarball map toString throw abort baseNameOf dirOf isNull removeAttrs",
	ops:           "== != <= >= && || -> // ++ ? ...",
	opChars:       "+-*/=<>!&|?:@",
	identPart:     "-'",
	flags:         fNixStr,
}

var bashLang = lang{
	lineComments: hashComments,
	strs: []strRule{
		{open: `"`, close: `"`, esc: '\\', multi: true},
		{open: `'`, close: `'`, multi: true},
		{open: "`", close: "`", esc: '\\', multi: true},
	},
	keywords:   "if then else elif fi case esac for select while until do done in function time coproc",
	types:      "true false",
	builtins:   "alias bg bind break builtin caller cd command compgen complete continue declare dirs disown echo enable eval exec exit export fc fg getopts hash help history jobs kill let local logout mapfile popd printf pushd pwd read readarray readonly return set shift shopt source suspend test times trap type typeset ulimit umask unalias unset wait",
	ops:        "&& || ;; |& >> << >& <& &> [[ ]] $((",
	opChars:    "|&;<>!=",
	identStart: "-./~+%,^0123456789",
	identPart:  "-./~+%,^:@",
	flags:      fDollarVar | fShell | fHeredoc,
}

var sqlLang = lang{
	lineComments:  []string{"--", "#"},
	blockComments: cBlock,
	strs: []strRule{
		{open: `'`, close: `'`, multi: true, double: true},
		{open: `"`, close: `"`, double: true},
		{open: "`", close: "`"},
	},
	keywords: "add all alter and any as asc begin between by cascade case check column commit constraint create cross database default delete desc distinct drop else end except exists explain foreign from full group having if in index inner insert intersect into is join key left like limit natural not null offset on or order outer primary references replace returning right rollback select set table then to transaction trigger truncate union unique update using values view when where with recursive over partition window",
	types:    "int integer smallint bigint decimal numeric real float double precision char varchar text boolean bool date time timestamp timestamptz interval blob json jsonb uuid serial true false",
	builtins: "count sum avg min max coalesce nullif cast upper lower length substring trim now concat round abs row_number rank",
	ops:      "<> != <= >= || :: ->>",
	opChars:  "+-*/%=<>!|",
	flags:    fCaseFold | fCallName,
}

var makeLang = lang{
	lineComments: hashComments,
	strs:         cStrings,
	keywords:     "define endef export override include sinclude ifeq ifneq ifdef ifndef else endif vpath unexport private",
	builtins:     "subst patsubst strip findstring filter filter-out sort word wordlist words firstword lastword dir notdir suffix basename addsuffix addprefix join wildcard realpath abspath if or and foreach call value eval origin flavor shell error warning info",
	ops:          ":= ::= ?= += !=",
	opChars:      "=:|;@",
	identStart:   ".%",
	identPart:    "-./%",
	flags:        fDollarVar | fLineKey | fMakeVar,
}

var hclLang = lang{
	lineComments:  []string{"#", "//"},
	blockComments: cBlock,
	strs:          []strRule{dqString},
	keywords:      "resource data variable output locals module provider terraform for in if for_each count depends_on lifecycle dynamic content",
	types:         "true false null string number bool list map set object tuple any",
	builtins:      "length lookup merge concat join split format replace lower upper element file jsonencode jsondecode tostring tonumber try can coalesce keys values",
	ops:           "== != <= >= && || => ...",
	opChars:       "+-*/%=<>!?:",
	identPart:     "-",
	flags:         fHeredoc | fLineKey | fCallName,
}
