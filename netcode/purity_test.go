package netcode

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

// edgeFiles are the files that may touch the outside world: the drivers,
// the transports and the network simulator. Everything else in the
// package is core.
var edgeFiles = map[string]bool{"driver.go": true, "transport.go": true, "mux.go": true, "netsim.go": true,
	"batch.go": true, "udp_linux.go": true, "udp_other.go": true}

// TestCoresDoNoIO: the cores read no clock, no entropy and no socket
// themselves: time comes in as now (or through ClientConfig.Clock), random
// bytes through an injected io.Reader (driver.go supplies the defaults).
func TestCoresDoNoIO(t *testing.T) {
	fset := token.NewFileSet()
	files := coreFiles(t, fset)
	clock := map[string]bool{"Now": true, "Since": true, "Until": true, "Sleep": true, "After": true,
		"AfterFunc": true, "NewTimer": true, "NewTicker": true, "Tick": true}
	for name, f := range files {
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			if p == "crypto/rand" || p == "math/rand" || p == "math/rand/v2" || p == "net" || p == "os" || p == "syscall" {
				t.Errorf("%s imports %q", name, p)
			}
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if sel, ok := n.(*ast.SelectorExpr); ok {
				if id, ok := sel.X.(*ast.Ident); ok && id.Name == "time" && clock[sel.Sel.Name] {
					t.Errorf("%s calls time.%s", fset.Position(sel.Pos()), sel.Sel.Name)
				}
			}
			if g, ok := n.(*ast.GoStmt); ok {
				t.Errorf("%s starts a goroutine", fset.Position(g.Pos()))
			}
			return true
		})
	}
	if len(files) < 15 {
		t.Fatalf("only %d core files found", len(files))
	}
}

// ownedParts are the parts whose fields only their own files touch (the
// file that declares the type and the files of its methods): everyone
// else, the composing Client and Server included, calls their methods; and
// the drivers use only the cores' methods.
var ownedParts = []string{"admission", "seatTable", "inputBuffer", "match", "session", "timeline",
	"clockSync", "linkStats", "seqWindow", "limiter", "TickClock", "window", "outbox",
	"Client", "Server", "ClientDriver", "ServerDriver", "MuxTransport", "MemNetwork", "Mem", "UDP", "mmsgConn", "sendQueue",
	"room", "roomTable", "connTable", "conn", "pathCheck", "clientConn", "epochs", "serverClock", "tally",
	"spectatorFeed", "guessLimiter", "LobbyClient", "Lobby"}

// rowParts are records that one part keeps and another reads: a seat
// table's seats, spectators and links, which the room that holds the
// table reads freely. Their fields are written only in their own files
// (through the seat table's transitions and the rows' methods).
var rowParts = []string{"seat", "spectator", "link"}

// TestPartsOwnTheirFields enforces that a part's state is changed and read
// only through its methods (STYLE 6b), by type-checking the package and
// finding every selector of a part's field outside the part's files.
func TestPartsOwnTheirFields(t *testing.T) {
	fset := token.NewFileSet()
	files := coreFiles(t, fset)
	for name, f := range edgeASTs(t, fset) {
		files[name] = f
	}
	var list []*ast.File
	for _, f := range files {
		list = append(list, f)
	}
	info := &types.Info{Selections: map[*ast.SelectorExpr]*types.Selection{}, Defs: map[*ast.Ident]types.Object{}}
	conf := types.Config{Importer: importer.ForCompiler(fset, "source", nil)}
	pkg, err := conf.Check("ttytanks/netcode", fset, list, info)
	if err != nil {
		t.Fatal(err)
	}
	owned := map[*types.Named]map[string]bool{} // part → the files that own it
	rows := map[*types.Named]bool{}
	for _, name := range rowParts {
		obj := pkg.Scope().Lookup(name)
		if obj == nil {
			t.Fatalf("row %s not found", name)
		}
		rows[obj.Type().(*types.Named)] = true
	}
	for _, name := range append(append([]string(nil), ownedParts...), rowParts...) {
		obj := pkg.Scope().Lookup(name)
		if obj == nil {
			t.Fatalf("part %s not found", name)
		}
		named := obj.Type().(*types.Named)
		own := map[string]bool{filepath.Base(fset.Position(obj.Pos()).Filename): true}
		for i := 0; i < named.NumMethods(); i++ {
			own[filepath.Base(fset.Position(named.Method(i).Pos()).Filename)] = true
		}
		owned[named] = own
	}
	written := map[*ast.SelectorExpr]bool{}
	for _, f := range list {
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
	var bad []string
	for sel, s := range info.Selections {
		if s.Kind() != types.FieldVal {
			continue
		}
		// A field reached through embedding belongs to the embedded type.
		named := fieldOwner(s.Recv(), s.Index())
		own, ok := owned[named]
		if !ok || (rows[named] && !written[sel]) {
			continue
		}
		file := filepath.Base(fset.Position(sel.Pos()).Filename)
		if !own[file] {
			bad = append(bad, fset.Position(sel.Pos()).String()+": "+named.Obj().Name()+"."+sel.Sel.Name)
		}
	}
	sort.Strings(bad)
	for _, b := range bad {
		t.Errorf("%s touched outside its part", b)
	}
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

func coreFiles(t *testing.T, fset *token.FileSet) map[string]*ast.File {
	t.Helper()
	return parseFiles(t, fset, func(name string) bool { return !edgeFiles[name] })
}

func edgeASTs(t *testing.T, fset *token.FileSet) map[string]*ast.File {
	t.Helper()
	return parseFiles(t, fset, func(name string) bool { return edgeFiles[name] })
}

func parseFiles(t *testing.T, fset *token.FileSet, keep func(string) bool) map[string]*ast.File {
	t.Helper()
	entries, err := os.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]*ast.File{}
	for _, e := range entries {
		name := e.Name()
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") || !keep(name) {
			continue
		}
		if ok, err := build.Default.MatchFile(".", name); err != nil || !ok {
			continue // another platform's file
		}
		f, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		out[name] = f
	}
	return out
}
