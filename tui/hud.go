package tui

import "github.com/gdamore/tcell/v2"

// SidebarDetail is how much the sidebar shows, cycled with Tab like the
// levels of Source's net_graph.
type SidebarDetail uint8

const (
	// SidebarFull is the full netcode panel: every figure, the sparklines,
	// the players and the keys. It is the default.
	SidebarFull SidebarDetail = iota
	// SidebarMiddle shows RTT, loss and rollbacks, the players and the keys.
	SidebarMiddle
	// SidebarScores shows the players and the event feed only.
	SidebarScores
	numSidebarDetails
)

// String returns the level's name as the help overlay shows it.
func (d SidebarDetail) String() string {
	switch d {
	case SidebarFull:
		return "full"
	case SidebarMiddle:
		return "middle"
	case SidebarScores:
		return "scores"
	}
	return "unknown"
}

// HUD is what the player has chosen to see during a session: names on the
// map, the help overlay, how much the sidebar shows, and (spectating)
// whose tank to follow. The zero HUD shows names, no help, the full
// sidebar and follows nobody. It is changed by Key and is not safe for
// concurrent use.
type HUD struct {
	// HideNames hides the name labels by the tanks on the map.
	HideNames bool
	// Help shows the help overlay.
	Help bool
	// Detail is how much the sidebar shows.
	Detail SidebarDetail
	// Follow is the slot a spectator follows plus one; 0 follows nobody.
	Follow int
	// Quitting shows the question whether to quit and end the match for
	// the others (Options.ConfirmQuit).
	Quitting bool
	// Chat is which chat lines the feed shows (m cycles it).
	Chat ChatShow
	// Typing is set while the chat line is open (Run sets it).
	Typing bool
	// Paused says the game stands still (Options.Pause): p, the help
	// overlay or a terminal too small paused it. Run sets it.
	Paused bool
}

// Key applies a display key and reports whether ev was one: n toggles the
// names, m cycles which chat lines show, ? or F1 opens (or closes) the help overlay and Esc closes it, Tab
// cycles the sidebar's levels and, when spectating, the number keys 1 to 8
// follow that player (the same number again stops following). Other keys,
// movement and quitting included, are left to Controls.
func (h *HUD) Key(ev *tcell.EventKey, spectating bool) bool {
	switch ev.Key() {
	case tcell.KeyF1:
		h.Help = !h.Help
	case tcell.KeyEscape:
		if !h.Help {
			return false
		}
		h.Help = false
	case tcell.KeyTab:
		h.Detail = (h.Detail + 1) % numSidebarDetails
	case tcell.KeyRune:
		switch r := ev.Rune(); {
		case r == 'n' || r == 'N':
			h.HideNames = !h.HideNames
		case r == 'm' || r == 'M':
			h.Chat = (h.Chat + 1) % numChatShows
		case r == '?':
			h.Help = !h.Help
		case spectating && r >= '1' && r <= '8':
			if n := int(r-'1') + 1; h.Follow == n {
				h.Follow = 0
			} else {
				h.Follow = n
			}
		default:
			return false
		}
	default:
		return false
	}
	return true
}

// followed returns the slot a spectator follows, or -1.
func (h *HUD) followed() int { return h.Follow - 1 }
