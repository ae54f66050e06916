package ladder

// migrations are the schema's versions in order: migrations[i] takes the
// database from version i to i+1, inside one transaction. A migration, once
// released, is never edited; a change of schema is a new one appended.
//
// Times are Unix milliseconds, UTC. Ratings are on the Glicko-1 scale
// (rating.Rating). The tables are STRICT, so a column holds only its own
// type; a boolean is an INTEGER of 0 or 1.
var migrations = []string{
	// 1: players, matches and each match's players.
	`
CREATE TABLE players (
	key            BLOB    NOT NULL PRIMARY KEY CHECK (length(key) = 32),
	name           TEXT    NOT NULL COLLATE NOCASE UNIQUE,
	name_fold      TEXT    NOT NULL UNIQUE,
	created_at     INTEGER NOT NULL,
	rating         REAL    NOT NULL,
	rd             REAL    NOT NULL,
	sigma          REAL    NOT NULL,
	matches        INTEGER NOT NULL DEFAULT 0,
	wins           INTEGER NOT NULL DEFAULT 0,
	round_wins     INTEGER NOT NULL DEFAULT 0,
	kills          INTEGER NOT NULL DEFAULT 0,
	deaths         INTEGER NOT NULL DEFAULT 0,
	shots          INTEGER NOT NULL DEFAULT 0,
	hits           INTEGER NOT NULL DEFAULT 0,
	seconds_played INTEGER NOT NULL DEFAULT 0
) STRICT;

CREATE TABLE matches (
	id        INTEGER NOT NULL PRIMARY KEY,
	played_at INTEGER NOT NULL,
	room      TEXT    NOT NULL,
	rated     INTEGER NOT NULL CHECK (rated IN (0, 1)),
	recording TEXT,
	rounds    INTEGER NOT NULL CHECK (rounds >= 0)
) STRICT;

CREATE TABLE match_players (
	match_id      INTEGER NOT NULL REFERENCES matches (id),
	player_key    BLOB    REFERENCES players (key),
	name          TEXT    NOT NULL,
	slot          INTEGER NOT NULL,
	standing      INTEGER NOT NULL,
	round_wins    INTEGER NOT NULL,
	kills         INTEGER NOT NULL,
	deaths        INTEGER NOT NULL,
	shots         INTEGER NOT NULL,
	hits          INTEGER NOT NULL,
	seconds       INTEGER NOT NULL,
	rating_before REAL,
	rating_after  REAL,
	rd_after      REAL,
	PRIMARY KEY (match_id, slot)
) STRICT;

CREATE INDEX players_by_rating ON players (rating DESC, name_fold) WHERE matches > 0;
CREATE INDEX match_players_by_player ON match_players (player_key, match_id) WHERE player_key IS NOT NULL;
`,
}
