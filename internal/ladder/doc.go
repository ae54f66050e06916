// Package ladder is the ranked ladder: player identities, their stats,
// the matches they played and their Glicko-2 ratings (package rating).
// A Board holds it: Store in a SQLite database (through
// modernc.org/sqlite, pure Go) for one server, RedisBoard in a Redis the
// servers of a fleet share, so that a name or a rating is one across
// them. Both hold to one specification, method by method (board_test.go
// runs the same tests on each).
//
// A player is an Ed25519 public key (Key) and holds one name, which no
// other key may take; names compare without regard to case. A key takes
// its name when it joins (ClaimName), or when it first plays a rated match
// under it. A match of two or more keyed players is rated; bots and
// guests, who have no key, are recorded but not rated.
//
//	s, err := ladder.Open(filepath.Join(dir, "ladder.db"))
//	defer s.Close()
//	// a keyed player joins: refuse the name if another key holds it
//	if err := s.ClaimName(ctx, key, name); errors.As(err, new(ladder.ErrNameTaken)) { … }
//	// a match ends: one transaction, and the ratings for the results screen
//	out, err := s.RecordMatch(ctx, ladder.Match{Room: room, Rounds: 5, Players: players})
//	// the leaderboard, a player's card and their last matches
//	top, err := s.Top(ctx, 20, 0)
//	p, ok, err := s.Player(ctx, key)
//	ms, err := s.History(ctx, key, 10)
//
// A fleet's servers each open a RedisBoard on the fleet's Redis instead:
//
//	b := ladder.NewRedisBoard(redis.NewClient(opt), ladder.DefaultRedisPrefix,
//		rating.Config{Tau: rating.DefaultTau}, time.Now)
//
// Each Store write is one transaction that takes the write lock at
// BEGIN, so it records all or nothing, even if the process is killed
// mid-way. The schema is versioned (schema_migrations); Open applies the
// migrations a database lacks and refuses one from a newer program. Each
// RedisBoard write is one MULTI/EXEC over the records it WATCHed, tried
// again if another server changed them first (see RedisBoard for the
// layout of its keys).
//
//	file              what it holds
//	board.go          Board, what a server asks of a ladder; Store.Ranked
//	store.go          Store, Open and its pragmas, Close, Backup, IntegrityCheck
//	schema.go         the migrations: the tables and indexes
//	migrate.go        migrate: each missing migration in its own transaction
//	match.go          Match, Outcome, RecordMatch: a match recorded and rated,
//	                  and the rating and rows both boards share
//	players.go        PlayerRecord, Player, Top, ClaimName, Forget
//	history.go        MatchRecord, History: a player's last matches
//	stmts.go          the Store's prepared statements, one per query
//	key.go            Key, names: who may hold which
//	errors.go         the errors
//	redis.go          RedisBoard, its key layout, NewRedisBoard, Close,
//	                  Ranked, the optimistic transaction and its retries
//	redis_names.go    claims: the records and names a RedisBoard write
//	                  reads under WATCH and how it leaves them
//	redis_players.go  the player hash, ClaimName, Player, Top, Forget
//	redis_match.go    the stored match, RecordMatch, History
package ladder
