package cli

import (
	"errors"
	"fmt"
	"os"
	"sort"
	"strconv"
	"strings"

	"github.com/pelletier/go-toml/v2"
	"github.com/pelletier/go-toml/v2/unstable"
	"github.com/spf13/pflag"
)

// A command's configuration file and environment: every flag of the
// command has a key in a TOML file (its name: players = 4, sim-latency =
// "60ms", trust = ["10.0.0.0/8"]) and a variable in the environment
// (TTYTANKS_ and its name in capitals with _ for -: TTYTANKS_PLAYERS=4;
// a list's items separated by commas). A flag on the command line wins
// over the environment, which wins over the file, which wins over the
// default. The file's keys are at the top level; a key that names no
// flag, a table, or a value of the wrong type is refused with its line.

// envPrefix starts the environment variable of every flag.
const envPrefix = "TTYTANKS_"

// secretAnnotation marks a flag whose value --print-config never shows.
const secretAnnotation = "secret"

// configKeys are the flags of fs that a file or the environment may
// set: all but the ones that are about the configuration itself.
func configKeys(fs *pflag.FlagSet, skip ...string) []*pflag.Flag {
	var out []*pflag.Flag
	fs.VisitAll(func(f *pflag.Flag) {
		for _, s := range skip {
			if f.Name == s {
				return
			}
		}
		out = append(out, f)
	})
	return out
}

// envName returns the environment variable of flag name.
func envName(name string) string {
	return envPrefix + strings.ToUpper(strings.ReplaceAll(name, "-", "_"))
}

// configSource is one place settings come from, for the errors.
type configSource struct {
	file string
	line int
	env  string
}

func (s configSource) String() string {
	if s.env != "" {
		return "environment " + s.env
	}
	return fmt.Sprintf("%s:%d", s.file, s.line)
}

// applyConfig sets the flags of fs that the command line did not set:
// from the environment (getenv), else from the TOML file (none if file is
// ""). Flags that share a value (aliases) count as one: set on the
// command line under any name, they are left alone. skip names the flags
// neither may set.
func applyConfig(fs *pflag.FlagSet, file string, getenv func(string) string, skip ...string) error {
	keys := configKeys(fs, skip...)
	byName := map[string]*pflag.Flag{}
	given := map[pflag.Value]bool{} // set on the command line, under any name
	for _, f := range keys {
		byName[f.Name] = f
		if f.Changed {
			given[f.Value] = true
		}
	}
	var values map[string]any
	lines := map[string]int{}
	if file != "" {
		var err error
		if values, lines, err = readConfigFile(file, byName); err != nil {
			return err
		}
	}
	for _, f := range keys {
		if given[f.Value] {
			continue
		}
		if v := getenv(envName(f.Name)); v != "" {
			if err := setFromEnv(fs, f, v); err != nil {
				return fmt.Errorf("%v: %w", configSource{env: envName(f.Name)}, err)
			}
			continue
		}
		if v, ok := values[f.Name]; ok {
			if err := setFromFile(fs, f, v); err != nil {
				return fmt.Errorf("%v: key %q: %w", configSource{file: file, line: lines[f.Name]}, f.Name, err)
			}
		}
	}
	return nil
}

// readConfigFile reads a TOML file's top-level keys and values, with
// each key's line; a key that is not in flags, or a table, is an error.
func readConfigFile(file string, flags map[string]*pflag.Flag) (map[string]any, map[string]int, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, nil, fmt.Errorf("--config: %w", err)
	}
	var values map[string]any
	if err := toml.Unmarshal(data, &values); err != nil {
		var de *toml.DecodeError
		if errors.As(err, &de) {
			row, col := de.Position()
			return nil, nil, fmt.Errorf("%s:%d:%d: %v", file, row, col, de)
		}
		return nil, nil, fmt.Errorf("%s: %w", file, err)
	}
	// The values are good TOML; now where each key is.
	lines := map[string]int{}
	p := unstable.Parser{}
	p.Reset(data)
	for p.NextExpression() {
		e := p.Expression()
		switch e.Kind {
		case unstable.Table, unstable.ArrayTable:
			name, line := dottedKey(&p, e)
			return nil, nil, fmt.Errorf("%s:%d: [%s]: the file has no tables: every key is a flag's name, at the top", file, line, name)
		case unstable.KeyValue:
			name, line := dottedKey(&p, e)
			if _, ok := flags[name]; !ok {
				return nil, nil, fmt.Errorf("%s:%d: unknown key %q: the keys are the flags' names (see --help)", file, line, name)
			}
			lines[name] = line
		}
	}
	if err := p.Error(); err != nil {
		return nil, nil, fmt.Errorf("%s: %w", file, err) // Unmarshal took it: not expected
	}
	return values, lines, nil
}

// dottedKey returns the key of a key-value or table expression, its
// parts joined by dots, and the line it starts on.
func dottedKey(p *unstable.Parser, e *unstable.Node) (string, int) {
	var parts []string
	line := 0
	for it := e.Key(); it.Next(); {
		n := it.Node()
		if line == 0 {
			line = keyLine(p, n)
		}
		parts = append(parts, string(n.Data))
	}
	return strings.Join(parts, "."), line
}

// keyLine returns the line of key node n: of its raw bytes, or of its
// data where that is the input's (0 if neither tells).
func keyLine(p *unstable.Parser, n *unstable.Node) (line int) {
	defer func() {
		if recover() != nil {
			line = 0 // the data was not the input's
		}
	}()
	r := n.Raw
	if r.Length == 0 {
		r = p.Range(n.Data)
	}
	return p.Shape(r).Start.Line
}

// flagKind is how a flag's value is written in TOML.
type flagKind int

const (
	kindString flagKind = iota
	kindInt
	kindBool
	kindFloat
	kindList
)

// kindOf returns how f's value is written in TOML.
func kindOf(f *pflag.Flag) flagKind {
	switch f.Value.Type() {
	case "int", "int8", "int16", "int32", "int64", "uint", "uint8", "uint16", "uint32", "uint64":
		return kindInt
	case "bool":
		return kindBool
	case "float32", "float64":
		return kindFloat
	case "stringArray", "stringSlice":
		return kindList
	}
	return kindString
}

// setFromFile sets f from a TOML value v, whose type must be f's.
func setFromFile(fs *pflag.FlagSet, f *pflag.Flag, v any) error {
	var s []string
	switch k := kindOf(f); {
	case k == kindInt:
		n, ok := v.(int64)
		if !ok {
			return fmt.Errorf("want an integer, got %s", tomlType(v))
		}
		s = []string{strconv.FormatInt(n, 10)}
	case k == kindBool:
		b, ok := v.(bool)
		if !ok {
			return fmt.Errorf("want true or false, got %s", tomlType(v))
		}
		s = []string{strconv.FormatBool(b)}
	case k == kindFloat:
		switch n := v.(type) {
		case float64:
			s = []string{strconv.FormatFloat(n, 'g', -1, 64)}
		case int64:
			s = []string{strconv.FormatInt(n, 10)}
		default:
			return fmt.Errorf("want a number, got %s", tomlType(v))
		}
	case k == kindList:
		items, ok := v.([]any)
		if !ok {
			return fmt.Errorf("want an array of strings, got %s", tomlType(v))
		}
		for _, it := range items {
			str, ok := it.(string)
			if !ok {
				return fmt.Errorf("want an array of strings, got an item that is %s", tomlType(it))
			}
			s = append(s, str)
		}
		if len(s) == 0 {
			return sliceReplace(f, nil)
		}
	default:
		str, ok := v.(string)
		if !ok {
			return fmt.Errorf("want a string (like %q), got %s", f.DefValue, tomlType(v))
		}
		s = []string{str}
	}
	for _, item := range s {
		if err := fs.Set(f.Name, item); err != nil {
			return err
		}
	}
	return nil
}

// sliceReplace empties a list flag.
func sliceReplace(f *pflag.Flag, items []string) error {
	if sv, ok := f.Value.(pflag.SliceValue); ok {
		f.Changed = true
		return sv.Replace(items)
	}
	return fmt.Errorf("cannot be emptied")
}

// setFromEnv sets f from an environment variable's value: a list's items
// are separated by commas.
func setFromEnv(fs *pflag.FlagSet, f *pflag.Flag, v string) error {
	if kindOf(f) != kindList {
		return fs.Set(f.Name, v)
	}
	for _, item := range strings.Split(v, ",") {
		if err := fs.Set(f.Name, strings.TrimSpace(item)); err != nil {
			return err
		}
	}
	return nil
}

// tomlType names the TOML type of a decoded value.
func tomlType(v any) string {
	switch v.(type) {
	case string:
		return "a string"
	case int64:
		return "an integer"
	case float64:
		return "a float"
	case bool:
		return "a boolean"
	case []any:
		return "an array"
	case map[string]any:
		return "a table"
	}
	return "a date or time"
}

// printConfig writes the effective configuration of fs's flags as a TOML
// file that --config reads back to the same settings: each key with its
// flag's help as a comment. A secret flag's value is never written (its
// key is, commented out); an alias of a flag already written is left out.
func printConfig(w *strings.Builder, fs *pflag.FlagSet, header string, skip ...string) {
	w.WriteString(header)
	seen := map[pflag.Value]bool{}
	keys := configKeys(fs, skip...)
	sort.Slice(keys, func(i, j int) bool { return keys[i].Name < keys[j].Name })
	for _, f := range keys {
		if seen[f.Value] {
			continue
		}
		seen[f.Value] = true
		fmt.Fprintf(w, "\n# %s\n", f.Usage)
		if _, secret := f.Annotations[secretAnnotation]; secret {
			fmt.Fprintf(w, "# %s = (secret: not printed)\n", f.Name)
			continue
		}
		fmt.Fprintf(w, "%s = %s\n", f.Name, tomlValue(f))
	}
}

// tomlValue returns f's value as TOML.
func tomlValue(f *pflag.Flag) string {
	switch kindOf(f) {
	case kindInt, kindBool, kindFloat:
		return f.Value.String()
	case kindList:
		var items []string
		if sv, ok := f.Value.(pflag.SliceValue); ok {
			for _, it := range sv.GetSlice() {
				items = append(items, tomlString(it))
			}
		}
		return "[" + strings.Join(items, ", ") + "]"
	}
	return tomlString(f.Value.String())
}

// tomlString quotes s as a TOML basic string.
func tomlString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\u%04X`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}
