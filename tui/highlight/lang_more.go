package highlight

// Languages beyond the first list that often turn up in answers:
// PowerShell, CMake, Perl and Julia.

var powershellLang = lang{
	lineComments:  hashComments,
	blockComments: []pair{{"<#", "#>"}},
	strs: []strRule{
		{open: `@"`, close: `"@`, multi: true},
		{open: `@'`, close: `'@`, multi: true},
		{open: `"`, close: `"`, esc: '`', multi: true},
		{open: `'`, close: `'`, multi: true, double: true},
	},
	keywords: "begin break catch class continue data do dynamicparam else elseif end enum exit filter finally for foreach from if in param process return switch throw trap try until using while " +
		"-eq -ne -gt -ge -lt -le -like -notlike -match -notmatch -contains -notcontains -in -notin -replace -and -or -not -xor -is -isnot -as -f",
	defs:       "function class enum",
	types:      "$true $false $null int string bool array hashtable object void",
	builtins:   "write-host write-output write-error get-item get-childitem set-location get-location get-content set-content new-item remove-item copy-item move-item test-path invoke-webrequest invoke-restmethod start-process get-process stop-process select-object where-object foreach-object sort-object measure-object out-file import-module",
	ops:        "+= -= *= /= ++ -- ::",
	opChars:    "=+*/%!|",
	identStart: "-",
	identPart:  "-",
	flags:      fCaseFold | fDollarVar | fCallName,
}

var cmakeLang = lang{
	lineComments: hashComments,
	strs:         []strRule{{open: `"`, close: `"`, esc: '\\', multi: true}},
	keywords:     "if elseif else endif foreach endforeach while endwhile function endfunction macro endmacro return break continue",
	defs:         "function macro",
	types:        "on off true false yes no PUBLIC PRIVATE INTERFACE REQUIRED STATIC SHARED",
	builtins:     "cmake_minimum_required project set unset option message include find_package add_executable add_library add_subdirectory add_test add_custom_command add_custom_target add_definitions add_compile_options add_dependencies target_link_libraries target_include_directories target_compile_definitions target_compile_options target_sources install configure_file file list string math enable_testing include_directories link_directories set_target_properties get_filename_component execute_process",
	opChars:      "",
	flags:        fCaseFold | fDollarVar | fCallName,
}

var perlLang = lang{
	lineComments:  hashComments,
	blockComments: []pair{{"=pod", "=cut"}, {"=head", "=cut"}, {"=begin", "=cut"}},
	strs:          cStrings,
	keywords:      "my our local if elsif else unless while until for foreach do last next redo return use no require package and or not eq ne lt gt le ge cmp qw",
	defs:          "sub package",
	types:         "undef __PACKAGE__ __FILE__ __LINE__ STDIN STDOUT STDERR",
	builtins:      "print printf say die warn open close chomp chop split join push pop shift unshift keys values each exists delete defined scalar ref bless sort map grep length substr index sprintf lc uc",
	ops:           "=> -> == != <= >= <=> && || // =~ !~ ++ -- ** .= += -= ::",
	opChars:       "+-*/%=<>!&|^~?:.",
	flags:         fCallName | fDollarVar | fHeredoc,
}

var juliaLang = lang{
	lineComments:  hashComments,
	blockComments: []pair{{"#=", "=#"}},
	nest:          true,
	strs:          tripleDouble,
	keywords:      "baremodule begin break catch const continue do else elseif end export finally for global if import let local quote return try using where while in isa",
	defs:          "function macro module struct abstract type",
	types:         "Int Int8 Int16 Int32 Int64 UInt UInt8 Float32 Float64 Bool Char String Symbol Any Nothing Vector Matrix Array Dict Tuple true false nothing missing NaN Inf",
	builtins:      "println print length push! pop! map filter reduce sum collect zeros ones size typeof convert parse string error throw",
	ops:           "== != <= >= === !== && || -> => :: .. ... |> .+ .- .* ./ += -= *= /= ÷",
	opChars:       "+-*/%^=<>!&|~?:\\",
	identPart:     "!",
	flags:         fCallName | fAtMeta | fCharLit,
}
