package docs_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// exported lists the exported names of the package in dir (test files
// aside): top-level names as they are, methods and fields as Type.Name.
func exported(t *testing.T, dir string) map[string]bool {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil || len(files) == 0 {
		t.Fatalf("%s: no Go files (%v)", dir, err)
	}
	names := map[string]bool{}
	fset := token.NewFileSet()
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		af, err := parser.ParseFile(fset, f, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range af.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if !d.Name.IsExported() {
					continue
				}
				if d.Recv == nil {
					names[d.Name.Name] = true
					continue
				}
				typ := d.Recv.List[0].Type
				if s, ok := typ.(*ast.StarExpr); ok {
					typ = s.X
				}
				if id, ok := typ.(*ast.Ident); ok && id.IsExported() {
					names[id.Name+"."+d.Name.Name] = true
				}
			case *ast.GenDecl:
				for _, sp := range d.Specs {
					switch s := sp.(type) {
					case *ast.TypeSpec:
						if !s.Name.IsExported() {
							continue
						}
						names[s.Name.Name] = true
						if st, ok := s.Type.(*ast.StructType); ok {
							for _, fl := range st.Fields.List {
								for _, n := range fl.Names {
									if n.IsExported() {
										names[s.Name.Name+"."+n.Name] = true
									}
								}
							}
						}
					case *ast.ValueSpec:
						for _, n := range s.Names {
							if n.IsExported() {
								names[n.Name] = true
							}
						}
					}
				}
			}
		}
	}
	return names
}

// TestStabilityTable: docs/extending.md's "What is stable" table has a row
// for each pluggable package; every name it gives (in either column) is an
// exported name of that package, every engine-facing name is listed in the
// package's doc as well, and the outside module examples/extend uses none
// of the engine-facing names (a component needs none of them).
func TestStabilityTable(t *testing.T) {
	doc, err := os.ReadFile("extending.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(doc), "\n## What is stable\n")
	if !ok {
		t.Fatal(`docs/extending.md has no "What is stable" section`)
	}
	var example strings.Builder
	files, _ := filepath.Glob("../examples/extend/*.go")
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		example.Write(b)
	}
	if example.Len() == 0 {
		t.Fatal("examples/extend has no Go files")
	}
	code := regexp.MustCompile("`([^`]+)`")
	ident := regexp.MustCompile(`^[A-Z]\w*(\.[A-Z]\w*)?$`)
	rows := map[string]bool{}
	for _, line := range strings.Split(section, "\n") {
		cells := strings.Split(line, "|")
		if len(cells) != 5 || !strings.HasPrefix(strings.TrimSpace(cells[1]), "`") {
			continue
		}
		pkg := strings.Trim(strings.TrimSpace(cells[1]), "`")
		rows[pkg] = true
		names := exported(t, filepath.Join("..", pkg))
		pkgDoc, err := os.ReadFile(filepath.Join("..", pkg, "doc.go"))
		if err != nil {
			t.Fatal(err)
		}
		for col, cell := range cells[2:4] {
			for _, m := range code.FindAllStringSubmatch(cell, -1) {
				for _, name := range strings.Split(m[1], "/") {
					if !ident.MatchString(name) {
						t.Errorf("%s: %q is not a name", pkg, name)
						continue
					}
					if !names[name] {
						t.Errorf("%s: the table names %s, which the package does not export", pkg, name)
					}
					if col == 0 {
						continue
					}
					if !regexp.MustCompile(`\b` + regexp.QuoteMeta(name) + `\b`).Match(pkgDoc) {
						t.Errorf("%s: engine-facing %s is not in the package doc", pkg, name)
					}
					if !strings.Contains(name, ".") && regexp.MustCompile(`\b`+pkg+`\.`+name+`\b`).MatchString(example.String()) {
						t.Errorf("%s: examples/extend uses engine-facing %s.%s", pkg, pkg, name)
					}
				}
			}
		}
	}
	for _, pkg := range []string{"tor", "cc", "routing", "schedules", "workload"} {
		if !rows[pkg] {
			t.Errorf("the table has no row for %s", pkg)
		}
	}
}
