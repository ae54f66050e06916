package tui

// glyphs is the set of strings the renderer draws, in a Unicode and an ASCII
// variant. Every string is one terminal cell wide unless noted.
type glyphs struct {
	wall     string // one maze tile: two cells
	wallHalf int    // the byte length of wall's first cell
	bullet   string
	// theirBullet is another player's bullet when colours are off (your
	// own are bullet).
	theirBullet string
	wreck       string    // a destroyed tank
	burst       [4]string // a tank being destroyed, frame by frame
	hitMark     [2]string // either side of a tank in hitstun, flashing
	// tank is indexed by aimIndex: up, up-right, right, down-right, down,
	// down-left, left, up-left.
	tank           [8]string
	heart, noHeart string
	spark          [8]string // sparkline levels, lowest first
	dash           string    // an em dash in prose
	dot            string    // a separator in prose
	ellipsis       string
	up, down       string // bandwidth arrows
	you            string // marks the local player in the roster
	followed       string // marks the player a spectator follows
	keys           [2]string
	keysShort      string
	// watchKeys and watchKeysShort are the key help for a spectator.
	watchKeys      [2]string
	watchKeysShort string
	// winner marks the match's winner on the results screen (not ★, the
	// lobby's mark of a ranked room); voted, a
	// player who voted for a rematch.
	winner, voted string
	// bigPixel is a lit pixel of the countdown's big characters, unlike a
	// wall; "" draws each character with itself.
	bigPixel string
	// ascii marks the ASCII set and its copies: text made elsewhere (the
	// sidebar's headers, units) is then kept to ASCII too.
	ascii bool
}

var unicodeGlyphs = glyphs{
	wall:        "██",
	wallHalf:    len("█"),
	bullet:      "•",
	theirBullet: "◦",
	wreck:       "x",
	burst:       [4]string{"#", "*", "+", "·"},
	hitMark:     [2]string{"(", ")"},
	// Arrows from one Unicode block, so all eight read alike and are one
	// cell wide in every common terminal font.
	tank:           [8]string{"↑", "↗", "→", "↘", "↓", "↙", "←", "↖"},
	heart:          "♥",
	noHeart:        "♡",
	spark:          [8]string{"▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"},
	dash:           "—",
	dot:            "·",
	ellipsis:       "…",
	up:             "↑",
	down:           "↓",
	you:            "›",
	followed:       "*",
	keys:           [2]string{"←↑↓→/WASD move · space fire", "x stop · ? help · q quit"},
	keysShort:      "←↑↓→/WASD · spc fire · q quit",
	watchKeys:      [2]string{"1-8 follow a player", "Tab panel · ? help · q quit"},
	watchKeysShort: "1-8 follow · ? help · q quit",
	winner:         "♛",
	voted:          "✓",
	bigPixel:       "▓",
}

var asciiGlyphs = glyphs{
	wall:        "##",
	wallHalf:    1,
	bullet:      "*",
	theirBullet: "o",
	wreck:       "x",
	burst:       [4]string{"#", "*", "+", "."},
	hitMark:     [2]string{"(", ")"},
	// ^ > v < for the axes; a diagonal shows the slash along it, so '/' is
	// up-right or down-left and '\' is down-right or up-left.
	tank:           [8]string{"^", "/", ">", "\\", "v", "/", "<", "\\"},
	heart:          "o",
	noHeart:        ".",
	spark:          [8]string{"_", ".", ":", "-", "=", "+", "*", "#"},
	dash:           "-",
	dot:            "|",
	ellipsis:       "~",
	up:             "^",
	down:           "v",
	you:            ">",
	followed:       "*",
	keys:           [2]string{"arrows/WASD move, space fire", "x stop, ? help, q quit"},
	keysShort:      "arrows/WASD, spc fire, q quit",
	watchKeys:      [2]string{"1-8 follow a player", "Tab panel, ? help, q quit"},
	watchKeysShort: "1-8 follow, ? help, q quit",
	winner:         "*",
	voted:          "yes",
	ascii:          true,
}

// aimIndex maps a tank's aim (each of AimX, AimY in {-1,0,1}) to an index
// into glyphs.tank, clockwise from up. A zero aim, which a valid snapshot
// never has, reads as up.
func aimIndex(ax, ay int8) int {
	switch {
	case ax == 0 && ay < 0:
		return 0
	case ax > 0 && ay < 0:
		return 1
	case ax > 0 && ay == 0:
		return 2
	case ax > 0 && ay > 0:
		return 3
	case ax == 0 && ay > 0:
		return 4
	case ax < 0 && ay > 0:
		return 5
	case ax < 0 && ay == 0:
		return 6
	case ax < 0 && ay < 0:
		return 7
	}
	return 0
}
