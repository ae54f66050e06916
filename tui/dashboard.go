package tui

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	"ttytanks/netcode"
)

// Dashboard renders the server operator's live view of st: the match,
// each player with input lateness and held/neutral ticks, drops by reason,
// tick time and bandwidth. share is the address players join. The result is
// ANSI text for a terminal of width×height (colourless when noColor).
func Dashboard(st *netcode.ServerStats, share string, width, height int, noColor bool) string {
	r := lipgloss.NewRenderer(io.Discard)
	if noColor {
		r.SetColorProfile(termenv.Ascii)
	} else {
		r.SetColorProfile(termenv.ANSI256)
	}
	width = max(width, 40)
	title := r.NewStyle().Bold(true).Foreground(lipgloss.Color("214"))
	label := r.NewStyle().Foreground(lipgloss.Color("245"))
	box := r.NewStyle().Border(lipgloss.RoundedBorder()).BorderForeground(lipgloss.Color("240")).Padding(0, 1)
	kv := func(k, v string) string { return label.Render(fmt.Sprintf("%-13s", k)) + v }

	state := "waiting for players"
	if st.Running {
		state = fmt.Sprintf("playing, tick %d", uint32(st.Tick))
	}
	match := box.Render(strings.Join([]string{
		title.Render("ttytanks server"),
		kv("join with", "ttytanks join "+share),
		kv("match", fmt.Sprintf("%08x  %s", st.Match, state)),
		kv("need", fmt.Sprintf("%d more player(s)", st.Need)),
		kv("spectators", fmt.Sprint(st.Spectators)),
		kv("tick p50/p99", fmt.Sprintf("%v / %v (budget %v)", st.TickP50.Round(time.Microsecond), st.TickP99.Round(time.Microsecond), netcode.TickDuration.Round(time.Microsecond))),
		kv("traffic", fmt.Sprintf("in %s  out %s  (%d datagrams in)", kb(st.BytesIn), kb(st.BytesOut), st.DatagramsIn)),
	}, "\n"))

	rows := []string{title.Render("players") + "\n" + label.Render(fmt.Sprintf("%-4s %-16s %6s %9s %7s %8s %5s", "slot", "name", "score", "margin", "held", "neutral", "late"))}
	for _, p := range st.Players {
		name := p.Name
		if p.Bot {
			name += " (bot)"
		}
		margin := fmt.Sprintf("%dms", p.MarginMs)
		if p.Bot {
			margin = "-"
		}
		rows = append(rows, fmt.Sprintf("%-4d %-16.16s %6d %9s %7d %8d %5d", p.Slot, name, p.Score, margin, p.HeldTicks, p.NeutralTicks, p.LateInputs))
	}
	if len(st.Players) == 0 {
		rows = append(rows, label.Render("(no one yet)"))
	}
	players := box.Render(strings.Join(rows, "\n"))

	var drops []string
	for i, n := range st.Drops {
		if n > 0 {
			drops = append(drops, fmt.Sprintf("%-15s %d", netcode.DropReason(i).String(), n))
		}
	}
	if len(drops) == 0 {
		drops = append(drops, label.Render("none"))
	}
	dropBox := box.Render(title.Render("dropped datagrams") + "\n" + strings.Join(drops, "\n"))

	body := lipgloss.JoinVertical(lipgloss.Left, match, players, dropBox)
	if width >= 110 {
		body = lipgloss.JoinHorizontal(lipgloss.Top, lipgloss.JoinVertical(lipgloss.Left, match, players), dropBox)
	}
	footer := label.Render("k then a slot kicks that player · b then a slot bans its address · Ctrl-C stops the server (players are told).")
	out := lipgloss.JoinVertical(lipgloss.Left, body, footer)
	if height > 0 {
		lines := strings.Split(out, "\n")
		if len(lines) > height {
			out = strings.Join(lines[:height], "\n")
		}
	}
	return strings.ReplaceAll(out, "\n", "\r\n") + "\r\n"
}

func kb(n uint64) string {
	if n < 10*1024 {
		return fmt.Sprintf("%d B", n)
	}
	if n < 10*1024*1024 {
		return fmt.Sprintf("%.1f KiB", float64(n)/1024)
	}
	return fmt.Sprintf("%.1f MiB", float64(n)/(1024*1024))
}
