// Package partcheck holds the structural checks the netcode packages'
// tests run on their own source (STYLE 2 and 6b): that a sans-IO core
// does no IO, and that a part's fields are touched only by the part's
// own files. It type-checks the package in the current directory, so a
// test calls it from its own package's directory.
//
//	func TestPartsOwnTheirFields(t *testing.T) {
//		partcheck.Owned(t, partcheck.Parts{Owned: []string{"room", "conn"}, Rows: []string{"seat"}})
//	}
package partcheck

import (
	"go/ast"
	"go/build"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// Files parses the package's non-test Go files of this platform in dir,
// keeping those keep accepts, by file name.
func Files(t testing.TB, fset *token.FileSet, dir string, keep func(name string) bool) map[string]*ast.File {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]*ast.File{}
	for _, e := range entries {
		name := e.Name()
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") || !keep(name) {
			continue
		}
		if ok, err := build.Default.MatchFile(dir, name); err != nil || !ok {
			continue // another platform's file
		}
		f, err := parser.ParseFile(fset, filepath.Join(dir, name), nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		out[name] = f
	}
	return out
}

// clockCalls are the functions of package time that read the clock or
// wait on it.
var clockCalls = map[string]bool{"Now": true, "Since": true, "Until": true, "Sleep": true, "After": true,
	"AfterFunc": true, "NewTimer": true, "NewTicker": true, "Tick": true}

// ioImports are the packages a core may not import: the network, the
// operating system, and randomness of its own.
var ioImports = map[string]bool{"crypto/rand": true, "math/rand": true, "math/rand/v2": true, "net": true, "os": true, "syscall": true}

// NoIO fails t for every core file (every file but edge's) of the
// package in dir that imports the network, the operating system or a
// random source, reads the clock, or starts a goroutine; and if fewer
// than min core files are found (the check would then prove nothing).
func NoIO(t testing.TB, dir string, edge map[string]bool, min int) {
	t.Helper()
	fset := token.NewFileSet()
	files := Files(t, fset, dir, func(name string) bool { return !edge[name] })
	for name, f := range files {
		for _, imp := range f.Imports {
			if p, _ := strconv.Unquote(imp.Path.Value); ioImports[p] {
				t.Errorf("%s imports %q", name, p)
			}
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if sel, ok := n.(*ast.SelectorExpr); ok {
				if id, ok := sel.X.(*ast.Ident); ok && id.Name == "time" && clockCalls[sel.Sel.Name] {
					t.Errorf("%s calls time.%s", fset.Position(sel.Pos()), sel.Sel.Name)
				}
			}
			if g, ok := n.(*ast.GoStmt); ok {
				t.Errorf("%s starts a goroutine", fset.Position(g.Pos()))
			}
			return true
		})
	}
	if len(files) < min {
		t.Fatalf("only %d core files found, want at least %d", len(files), min)
	}
}

// Parts names the parts of a package whose fields Owned checks.
type Parts struct {
	// Dir is the package's directory ("" or "." for the current one),
	// Path its import path.
	Dir, Path string
	// Owned are the parts whose fields only their own files touch: the
	// file that declares the type and the files of its methods. Everyone
	// else calls their methods.
	Owned []string
	// Rows are records that one part keeps and others read: their
	// fields may be read anywhere in the package, and are written only
	// in their own files.
	Rows []string
}

// Owned type-checks the package and fails t for every selector of a
// part's field outside the part's files (for rows: every write), a field
// reached through embedding counting as the embedded type's.
func Owned(t testing.TB, p Parts) {
	t.Helper()
	fset := token.NewFileSet()
	dir := p.Dir
	if dir == "" {
		dir = "."
	}
	files := Files(t, fset, dir, func(string) bool { return true })
	var list []*ast.File
	for _, f := range files {
		list = append(list, f)
	}
	info := &types.Info{Selections: map[*ast.SelectorExpr]*types.Selection{}}
	conf := types.Config{Importer: importer.ForCompiler(fset, "source", nil)}
	pkg, err := conf.Check(p.Path, fset, list, info)
	if err != nil {
		t.Fatal(err)
	}
	owned := map[*types.Named]map[string]bool{} // part → the files that own it
	rows := map[*types.Named]bool{}
	add := func(name string, row bool) {
		obj := pkg.Scope().Lookup(name)
		if obj == nil {
			t.Fatalf("part %s not found", name)
		}
		named := obj.Type().(*types.Named)
		own := map[string]bool{filepath.Base(fset.Position(obj.Pos()).Filename): true}
		for i := 0; i < named.NumMethods(); i++ {
			own[filepath.Base(fset.Position(named.Method(i).Pos()).Filename)] = true
		}
		owned[named], rows[named] = own, row
	}
	for _, name := range p.Owned {
		add(name, false)
	}
	for _, name := range p.Rows {
		add(name, true)
	}
	written := writes(list)
	var bad []string
	for sel, s := range info.Selections {
		if s.Kind() != types.FieldVal {
			continue
		}
		named := fieldOwner(s.Recv(), s.Index())
		own, ok := owned[named]
		if !ok || (rows[named] && !written[sel]) {
			continue
		}
		if file := filepath.Base(fset.Position(sel.Pos()).Filename); !own[file] {
			bad = append(bad, fset.Position(sel.Pos()).String()+": "+named.Obj().Name()+"."+sel.Sel.Name)
		}
	}
	sort.Strings(bad)
	for _, b := range bad {
		t.Errorf("%s touched outside its part", b)
	}
}

// writes returns the selectors that are assigned to or incremented.
func writes(files []*ast.File) map[*ast.SelectorExpr]bool {
	written := map[*ast.SelectorExpr]bool{}
	for _, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.AssignStmt:
				for _, l := range n.Lhs {
					if sel, ok := ast.Unparen(l).(*ast.SelectorExpr); ok {
						written[sel] = true
					}
				}
			case *ast.IncDecStmt:
				if sel, ok := ast.Unparen(n.X).(*ast.SelectorExpr); ok {
					written[sel] = true
				}
			}
			return true
		})
	}
	return written
}

// fieldOwner returns the named type that declares the field a selection
// of recv with index path idx reaches: recv's own, or an embedded type's
// (nil if it is no named type).
func fieldOwner(recv types.Type, idx []int) *types.Named {
	for i, x := range idx {
		if p, ok := recv.(*types.Pointer); ok {
			recv = p.Elem()
		}
		named, _ := recv.(*types.Named)
		st, ok := recv.Underlying().(*types.Struct)
		if !ok {
			return nil
		}
		if i == len(idx)-1 {
			return named
		}
		recv = st.Field(x).Type()
	}
	return nil
}
