module github.com/ternhq/tern

go 1.26
