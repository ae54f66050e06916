package game

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestPurity keeps the simulation, and the bot that reads it, deterministic
// by construction: the non-test files of game/ and its sub-packages use no
// floats, clocks, IO, goroutines, global randomness or maps, and of our own
// packages import only game itself.
func TestPurity(t *testing.T) {
	forbidden := map[string]bool{"time": true, "os": true, "net": true, "math/rand": true,
		"math/rand/v2": true, "sync": true, "sync/atomic": true, "unsafe": true, "reflect": true}
	fset := token.NewFileSet()
	checked := map[string]int{}
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return err
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		checked[filepath.Dir(path)]++
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			if forbidden[p] || strings.HasPrefix(p, "net/") || strings.HasPrefix(p, "ttytanks/") && p != "ttytanks/game" {
				t.Errorf("%s imports %q", path, p)
			}
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.Ident:
				if n.Name == "float32" || n.Name == "float64" || n.Name == "complex64" || n.Name == "complex128" {
					t.Errorf("%s uses %s", fset.Position(n.Pos()), n.Name)
				}
			case *ast.BasicLit:
				if n.Kind == token.FLOAT || n.Kind == token.IMAG {
					t.Errorf("%s has a floating-point literal %s", fset.Position(n.Pos()), n.Value)
				}
			case *ast.GoStmt:
				t.Errorf("%s starts a goroutine", fset.Position(n.Pos()))
			case *ast.MapType:
				t.Errorf("%s uses a map (iteration order is random)", fset.Position(n.Pos()))
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked["."] < 5 || checked["bot"] < 2 {
		t.Fatalf("checked too few files: %v", checked)
	}
}
