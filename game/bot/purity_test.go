package bot

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"strconv"
	"strings"
	"testing"
)

// TestPurity holds the bot to the game's rules of determinism: no floats,
// clocks, IO, goroutines, global randomness or maps; of our own packages
// only game.
func TestPurity(t *testing.T) {
	forbidden := map[string]bool{"time": true, "os": true, "net": true, "math/rand": true,
		"math/rand/v2": true, "sync": true, "sync/atomic": true, "unsafe": true, "reflect": true}
	entries, err := os.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	checked := 0
	for _, e := range entries {
		name := e.Name()
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		checked++
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			if forbidden[p] || strings.HasPrefix(p, "net/") ||
				strings.HasPrefix(p, "ttytanks/") && p != "ttytanks/game" {
				t.Errorf("%s imports %q", name, p)
			}
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.Ident:
				if n.Name == "float32" || n.Name == "float64" || n.Name == "complex64" || n.Name == "complex128" {
					t.Errorf("%s: %s uses %s", name, fset.Position(n.Pos()), n.Name)
				}
			case *ast.BasicLit:
				if n.Kind == token.FLOAT || n.Kind == token.IMAG {
					t.Errorf("%s: %s has a floating-point literal %s", name, fset.Position(n.Pos()), n.Value)
				}
			case *ast.GoStmt:
				t.Errorf("%s: %s starts a goroutine", name, fset.Position(n.Pos()))
			case *ast.MapType:
				t.Errorf("%s: %s uses a map", name, fset.Position(n.Pos()))
			}
			return true
		})
	}
	if checked < 3 {
		t.Fatalf("checked only %d files", checked)
	}
}
