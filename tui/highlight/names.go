package highlight

import "strings"

// lookup returns the language named name (lower case): a name, an alias, a
// file extension or a file name ("main.go", "dockerfile"). It is a switch
// rather than a map so that nothing is built at start-up.
func lookup(name string) *lang {
	if l := byName(name); l != nil {
		return l
	}
	if i := strings.LastIndexByte(name, '.'); i >= 0 {
		return byName(name[i+1:])
	}
	return nil
}

// byName maps every name, alias and extension to its language.
func byName(name string) *lang {
	switch name {
	case "go", "golang":
		return &goLang
	case "python", "py", "python3", "py3", "python2", "pyi", "pyw", "gyp", "bzl", "starlark", "sage":
		return &pythonLang
	case "javascript", "js", "jsx", "mjs", "cjs", "node", "nodejs", "es6", "ecmascript":
		return &jsLang
	case "typescript", "ts", "tsx", "mts", "cts", "deno":
		return &tsLang
	case "rust", "rs":
		return &rustLang
	case "c", "h":
		return &cLang
	case "cpp", "c++", "cc", "cxx", "hpp", "hh", "hxx", "h++", "ino", "cuda", "cu", "objc", "objective-c", "objectivec", "mm":
		return &cppLang
	case "java":
		return &javaLang
	case "kotlin", "kt", "kts":
		return &kotlinLang
	case "csharp", "c#", "cs", "dotnet":
		return &csharpLang
	case "swift":
		return &swiftLang
	case "ruby", "rb", "gemspec", "rake", "rakefile", "gemfile", "podfile":
		return &rubyLang
	case "php", "php3", "php4", "php5", "php7", "php8", "phtml":
		return &phpLang
	case "bash", "sh", "zsh", "shell", "ksh", "fish", "ash", "dash", "shellscript", "bashrc", "zshrc", "profile", "envrc", "env", "ebuild":
		return &bashLang
	case "console", "shell-session", "shellsession", "terminal", "sh-session", "bash-session", "zsh-session", "prompt":
		return &consoleLang
	case "json", "jsonc", "json5", "jsonl", "ndjson", "geojson", "webmanifest", "ipynb":
		return &jsonLang
	case "yaml", "yml":
		return &yamlLang
	case "toml":
		return &tomlLang
	case "ini", "cfg", "conf", "config", "properties", "desktop", "gitconfig", "editorconfig", "service", "systemd":
		return &iniLang
	case "sql", "mysql", "postgresql", "postgres", "psql", "plsql", "sqlite", "tsql", "pgsql":
		return &sqlLang
	case "html", "htm", "xhtml", "xml", "svg", "xsd", "xsl", "xslt", "plist", "vue", "svelte", "rss", "atom", "csproj", "jsp", "erb", "jinja", "jinja2", "xaml":
		return &markupLang
	case "css":
		return &cssLang
	case "scss", "sass", "less", "stylus":
		return &scssLang
	case "lua", "luau":
		return &luaLang
	case "dockerfile", "docker", "containerfile":
		return &dockerLang
	case "makefile", "make", "mk", "mak", "gnumakefile", "bsdmakefile":
		return &makeLang
	case "diff", "patch", "udiff", "rej":
		return &diffLang
	case "markdown", "md", "mdx", "mkd", "mkdn", "gfm":
		return &markdownLang
	case "protobuf", "proto", "proto3", "proto2":
		return &protoLang
	case "graphql", "gql", "graphqls":
		return &graphqlLang
	case "dart":
		return &dartLang
	case "scala", "sc", "sbt":
		return &scalaLang
	case "haskell", "hs", "lhs":
		return &haskellLang
	case "elixir", "ex", "exs":
		return &elixirLang
	case "r", "rscript", "splus":
		return &rLang
	case "zig", "zon":
		return &zigLang
	case "nix":
		return &nixLang
	case "hcl", "terraform", "tf", "tfvars", "hcl2", "nomad":
		return &hclLang
	case "powershell", "pwsh", "ps1", "psm1", "psd1", "posh":
		return &powershellLang
	case "cmake", "cmakelists", "cmakelists.txt":
		return &cmakeLang
	case "perl", "pl", "pm", "perl5":
		return &perlLang
	case "julia", "jl":
		return &juliaLang
	}
	return nil
}
