package highlight

// The languages of the C family: braces, // and /* */ comments.

// Shared pieces of the descriptions.
var (
	slashComments = []string{"//"}
	cBlock        = []pair{{"/*", "*/"}}
	dqString      = strRule{open: `"`, close: `"`, esc: '\\'}
	sqString      = strRule{open: `'`, close: `'`, esc: '\\'}
	cStrings      = []strRule{dqString, sqString}
	tripleStrings = []strRule{
		{open: `"""`, close: `"""`, esc: '\\', multi: true},
		dqString, sqString,
	}
	// tripleDouble is tripleStrings without single quotes, which are
	// character literals or nothing.
	tripleDouble = []strRule{
		{open: `"""`, close: `"""`, esc: '\\', multi: true},
		dqString,
	}
)

const (
	cOps     = "== != <= >= && || ++ -- += -= *= /= %= &= |= ^= <<= >>= << >> -> ::"
	cOpChars = "+-*/%=<>!&|^~?:"
)

var goLang = lang{
	lineComments:  slashComments,
	blockComments: cBlock,
	strs: []strRule{
		{open: "`", close: "`", multi: true},
		dqString, sqString,
	},
	keywords: "break case chan const continue default defer else fallthrough for go goto if import interface map package range return select struct switch var",
	defs:     "func type",
	types:    "bool byte complex64 complex128 error float32 float64 int int8 int16 int32 int64 rune string uint uint8 uint16 uint32 uint64 uintptr any comparable true false nil iota",
	builtins: "append cap clear close complex copy delete imag len make max min new panic print println real recover",
	ops:      cOps + " := ... &^ &^= <-",
	opChars:  cOpChars,
	flags:    fCallName,
}

const cKeywords = "auto break case const continue default do else enum extern for goto if inline register restrict return sizeof static switch typedef union volatile while _Alignas _Alignof _Atomic _Generic _Noreturn _Static_assert _Thread_local"

const cTypes = "char double float int long short signed unsigned void bool _Bool size_t ssize_t ptrdiff_t int8_t int16_t int32_t int64_t uint8_t uint16_t uint32_t uint64_t uintptr_t intptr_t FILE NULL true false"

var cLang = lang{
	lineComments:  slashComments,
	blockComments: cBlock,
	strs:          cStrings,
	strPrefixes:   "L u U u8",
	keywords:      cKeywords,
	defs:          "struct",
	types:         cTypes,
	builtins:      "printf fprintf sprintf snprintf malloc calloc realloc free memcpy memset strlen strcmp strcpy sizeof exit assert",
	ops:           cOps,
	opChars:       cOpChars,
	flags:         fCallName | fHashMeta,
}

var cppLang = lang{
	lineComments:  slashComments,
	blockComments: cBlock,
	strs:          cStrings,
	strPrefixes:   "L u U u8",
	keywords:      cKeywords + " alignas alignof and asm catch class co_await co_return co_yield concept consteval constexpr constinit const_cast decltype delete dynamic_cast explicit export final friend mutable namespace new noexcept not operator or override private protected public reinterpret_cast requires static_assert static_cast template this thread_local throw try typeid typename using virtual xor",
	defs:          "struct class namespace enum union",
	types:         cTypes + " wchar_t char8_t char16_t char32_t nullptr auto std string vector map unordered_map set unique_ptr shared_ptr optional",
	builtins:      "printf malloc free memcpy strlen cout cerr endl move forward make_unique make_shared sizeof",
	ops:           cOps + " ->* .* <=> ... ::",
	opChars:       cOpChars,
	flags:         fCallName | fHashMeta | fCppRaw,
}

var javaLang = lang{
	lineComments:  slashComments,
	blockComments: cBlock,
	strs:          tripleStrings,
	keywords:      "abstract assert break case catch continue default do else enum extends final finally for goto if implements import instanceof native new package private protected public return static strictfp super switch synchronized this throw throws transient try var volatile while yield record sealed permits non-sealed",
	defs:          "class interface enum record",
	types:         "boolean byte char double float int long short void String Object Integer Long Double Boolean List Map Set true false null",
	builtins:      "System",
	ops:           cOps + " >>> >>>= ->",
	opChars:       cOpChars,
	identStart:    "$",
	flags:         fCallName | fAtMeta,
}

var kotlinLang = lang{
	lineComments:  slashComments,
	blockComments: cBlock,
	nest:          true,
	strs:          tripleStrings,
	keywords:      "as break by catch class companion const constructor continue data do else enum external finally for get if import in infix init inline inner interface internal is lateinit noinline object open operator out override package private protected public reified return sealed set super suspend tailrec this throw try typealias val var vararg when where while",
	defs:          "fun class interface object typealias",
	types:         "Any Boolean Byte Char Double Float Int Long Nothing Short String Unit Array List Map Set MutableList MutableMap true false null",
	builtins:      "println print listOf mutableListOf mapOf mutableMapOf setOf arrayOf lazy require check error repeat run let apply also with",
	ops:           cOps + " ?. ?: !! .. ..< === !== =>",
	opChars:       cOpChars,
	flags:         fCallName | fAtMeta,
}

var csharpLang = lang{
	lineComments:  slashComments,
	blockComments: cBlock,
	strs: []strRule{
		{open: `"""`, close: `"""`, multi: true},
		{open: `$@"`, close: `"`, multi: true, double: true},
		{open: `@$"`, close: `"`, multi: true, double: true},
		{open: `@"`, close: `"`, multi: true, double: true},
		{open: `$"`, close: `"`, esc: '\\'},
		dqString, sqString,
	},
	keywords: "abstract as async await base break case catch checked const continue default delegate do else event explicit extern finally fixed for foreach get goto if implicit in init internal is lock nameof new operator out override params private protected public readonly ref return sealed set sizeof stackalloc static switch this throw try typeof unchecked unsafe using var virtual volatile when where while yield",
	defs:     "class interface struct enum record namespace",
	types:    "bool byte char decimal double dynamic float int long object sbyte short string uint ulong ushort void String List Dictionary Task true false null",
	builtins: "Console Math",
	ops:      cOps + " => ?? ??= ?.",
	opChars:  cOpChars,
	flags:    fCallName | fHashMeta | fBracketAttr,
}

var swiftLang = lang{
	lineComments:  slashComments,
	blockComments: cBlock,
	nest:          true,
	strs:          tripleDouble,
	keywords:      "associatedtype async await break case catch continue convenience default defer deinit do dynamic else extension fallthrough fileprivate final for guard if import in indirect infix init inout internal is lazy let mutating nonmutating open operator optional override postfix precedencegroup prefix private public repeat required rethrows return self Self some static subscript super switch throw throws try unowned var weak where while any",
	defs:          "func class struct enum protocol typealias actor",
	types:         "Any AnyObject Bool Character Double Float Int Int8 Int16 Int32 Int64 String UInt UInt8 UInt16 UInt32 UInt64 Void Array Dictionary Set Optional Result true false nil",
	builtins:      "print debugPrint fatalError precondition assert min max abs zip stride",
	ops:           cOps + " ... ..< === !== ?? -> =>",
	opChars:       cOpChars,
	flags:         fCallName | fAtMeta | fHashMeta,
}

var dartLang = lang{
	lineComments:  slashComments,
	blockComments: cBlock,
	nest:          true,
	strs: []strRule{
		{open: `"""`, close: `"""`, esc: '\\', multi: true},
		{open: `'''`, close: `'''`, esc: '\\', multi: true},
		dqString, sqString,
	},
	strPrefixes: "r",
	keywords:    "abstract as assert async await base break case catch const continue covariant default deferred do dynamic else export extends extension external factory final finally for get hide if implements import in interface is late library mixin new on operator part required rethrow return sealed set show static super switch sync this throw try var when while with yield",
	defs:        "class enum mixin typedef extension",
	types:       "bool double int num Object String List Map Set Future Stream void Never Null true false null",
	builtins:    "print identical",
	ops:         cOps + " => ?? ??= ?. ... ~/ ..",
	opChars:     cOpChars,
	flags:       fCallName | fAtMeta,
}

var scalaLang = lang{
	lineComments:  slashComments,
	blockComments: cBlock,
	nest:          true,
	strs:          tripleDouble,
	strPrefixes:   "s f raw",
	keywords:      "abstract case catch do else enum export extends final finally for forSome given if implicit import lazy match new override package private protected return sealed super then this throw try using val var while with yield",
	defs:          "def class object trait type",
	types:         "Any AnyRef AnyVal Boolean Byte Char Double Float Int Long Nothing Null Short String Unit List Map Option Some None Seq Vector true false null",
	builtins:      "println print require",
	ops:           cOps + " => <- <: >: :: ++ ::: #",
	opChars:       cOpChars,
	flags:         fCallName | fAtMeta | fCharLit,
}

var rustLang = lang{
	lineComments:  slashComments,
	blockComments: cBlock,
	nest:          true,
	strs:          []strRule{{open: `"`, close: `"`, esc: '\\', multi: true}},
	strPrefixes:   "b c",
	keywords:      "as async await break const continue crate dyn else extern for if impl in let loop match move mut pub ref return self static super unsafe use where while yield",
	defs:          "fn struct enum trait type mod union macro_rules",
	types:         "bool char f32 f64 i8 i16 i32 i64 i128 isize str u8 u16 u32 u64 u128 usize String Vec Option Result Box Rc Arc Self Some None Ok Err true false",
	builtins:      "println! print! eprintln! format! vec! panic! assert! assert_eq! assert_ne! write! writeln! todo! unimplemented! unreachable! matches! dbg!",
	ops:           cOps + " => .. ..= ::",
	opChars:       cOpChars,
	flags:         fCallName | fRustAttr | fRustRaw | fCharLit | fMacroBang,
}

var zigLang = lang{
	lineComments: slashComments,
	strs:         cStrings,
	keywords:     "addrspace align allowzero and anyframe anytype asm async await break callconv catch comptime const continue defer else enum errdefer error export extern for if inline linksection noalias noinline nosuspend opaque or orelse packed pub resume return struct suspend switch test threadlocal try union unreachable usingnamespace var volatile while",
	defs:         "fn",
	types:        "bool f16 f32 f64 f80 f128 i8 i16 i32 i64 i128 isize u8 u16 u32 u64 u128 usize void noreturn type anyerror anyopaque comptime_int comptime_float true false null undefined",
	ops:          cOps + " => .. ... .* .? ++ ** ||",
	opChars:      cOpChars,
	flags:        fCallName | fAtBuiltin | fZigLine,
}

const jsKeywords = "async await break case catch class const continue debugger default delete do else export extends finally for from get if import in instanceof let new of return set static super switch this throw try typeof var void while with yield"

const jsOps = cOps + " === !== => ?? ??= ?. ... ** **= >>> &&= ||="

// jsStrings leave out template literals, which fTemplate reads.
var jsStrings = []strRule{dqString, sqString}

var jsLang = lang{
	lineComments:  slashComments,
	blockComments: cBlock,
	strs:          jsStrings,
	keywords:      jsKeywords,
	defs:          "function class",
	types:         "true false null undefined NaN Infinity",
	builtins:      "console window document globalThis Array Object String Number Boolean Promise Map Set JSON Math Date Error RegExp Symbol require module exports parseInt parseFloat setTimeout",
	ops:           jsOps,
	opChars:       cOpChars,
	identStart:    "$",
	flags:         fCallName | fAtMeta | fRegex | fTemplate,
}

var tsLang = lang{
	lineComments:  slashComments,
	blockComments: cBlock,
	strs:          jsStrings,
	keywords:      jsKeywords + " abstract as asserts declare implements infer is keyof namespace override private protected public readonly satisfies unique",
	defs:          "function class interface type enum namespace",
	types:         "any bigint boolean never number object string symbol unknown void true false null undefined NaN Infinity Array Record Partial Promise Readonly",
	builtins:      "console window document globalThis Object String Number Boolean Map Set JSON Math Date Error RegExp Symbol require parseInt parseFloat setTimeout",
	ops:           jsOps,
	opChars:       cOpChars,
	identStart:    "$",
	flags:         fCallName | fAtMeta | fRegex | fTemplate,
}

var protoLang = lang{
	lineComments:  slashComments,
	blockComments: cBlock,
	strs:          cStrings,
	keywords:      "syntax edition import weak public package option repeated optional required reserved extensions extend to max returns stream oneof map",
	defs:          "message enum service rpc",
	types:         "double float int32 int64 uint32 uint64 sint32 sint64 fixed32 fixed64 sfixed32 sfixed64 bool string bytes true false",
	opChars:       "=",
}

var graphqlLang = lang{
	lineComments: []string{"#"},
	strs: []strRule{
		{open: `"""`, close: `"""`, esc: '\\', multi: true},
		dqString,
	},
	keywords: "query mutation subscription fragment on implements extend schema directive repeatable",
	defs:     "type interface enum input scalar union",
	types:    "Int Float String Boolean ID true false null",
	ops:      "...",
	opChars:  "=!:|&@$",
	flags:    fAtMeta | fDollarVar,
}
