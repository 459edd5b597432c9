"""The database schema as numbered migrations.

Each migration runs once, in order, inside one transaction; ``schema_version`` records how far a database has
come. Add a migration at the end to change the schema; never edit one that has shipped.
"""

from __future__ import annotations

#: Migration 7's new name of a stored variant: its options minus the defaults the game filled in. Druid stored its
#: board size and Dragons its pool size even when the challenge left them out (the default depends on another
#: option), so a game with no option was the variant ``-size=10``, never ``standard``. Options are stored in the
#: order the game declares them (Druid: size, hex, walk, nostack, nogaps, y; Dragons: num_tiles, tantrix, ...),
#: so the filled-in value is the variant's first word; it is the default when it matches the board (square 10,
#: hex 5, Y 8) or the pool (50, or 40 with -tantrix, which follows it).
_VARIANT_RENAMED = """CASE
        WHEN game_type = 'druid' AND variant = '-size=10' THEN 'standard'
        WHEN game_type = 'druid' AND variant LIKE '-size=10 %' AND variant NOT LIKE '% -hex%'
            AND variant NOT LIKE '% -y' THEN SUBSTR(variant, 10)
        WHEN game_type = 'druid' AND variant LIKE '-size=5 -hex%' THEN SUBSTR(variant, 9)
        WHEN game_type = 'druid' AND variant LIKE '-size=8 %' AND variant LIKE '% -y' THEN SUBSTR(variant, 9)
        WHEN game_type = 'dragons' AND variant = '-num_tiles=50' THEN 'standard'
        WHEN game_type = 'dragons' AND variant LIKE '-num_tiles=50 %'
            AND variant NOT LIKE '-num_tiles=50 -tantrix%' THEN SUBSTR(variant, 15)
        WHEN game_type = 'dragons' AND variant LIKE '-num_tiles=40 -tantrix%' THEN SUBSTR(variant, 15)
        ELSE variant END"""

#: Migration 7, the same on both databases: every stored variant renamed (see :data:`_VARIANT_RENAMED`). A
#: player's results under the old name are added to any already under the new one, so the migration holds
#: whatever the rows.
_RENAME_VARIANTS = f"""
    UPDATE rating_changes SET variant = {_VARIANT_RENAMED} WHERE game_type IN ('druid', 'dragons');
    INSERT INTO rating_variants (player_id, game_type, variant, score, games, wins, losses, draws, points_won,
            points_lost)
        SELECT player_id, game_type, {_VARIANT_RENAMED}, score, games, wins, losses, draws, points_won, points_lost
        FROM rating_variants WHERE game_type IN ('druid', 'dragons') AND variant <> {_VARIANT_RENAMED}
        ON CONFLICT (player_id, game_type, variant) DO UPDATE SET games = rating_variants.games + excluded.games,
            wins = rating_variants.wins + excluded.wins, losses = rating_variants.losses + excluded.losses,
            draws = rating_variants.draws + excluded.draws,
            points_won = rating_variants.points_won + excluded.points_won,
            points_lost = rating_variants.points_lost + excluded.points_lost;
    DELETE FROM rating_variants WHERE game_type IN ('druid', 'dragons') AND variant <> {_VARIANT_RENAMED};
    """


#: Migration 8, the same on both databases but for the types: each Discord server's settings (one JSON object,
#: read by :mod:`bot.actions.settings`; a server without a row has the defaults) with a ``version`` that every
#: change raises, so a process that cached them sees a change made by another at its next command (one primary
#: key lookup); and the moderators' audit log: who did what, when and why, per server (``guild_id`` NULL: the
#: console). ``IF NOT EXISTS`` keeps the script harmless when a test winds ``schema_version`` back over it.
_SERVER_SETTINGS = """
    CREATE TABLE IF NOT EXISTS guild_settings (
        guild_id    {id} PRIMARY KEY,
        data        TEXT NOT NULL,
        version     {id} NOT NULL,
        updated_by  TEXT NOT NULL,
        updated_at  {real} NOT NULL
    );
    CREATE TABLE IF NOT EXISTS audit_log (
        id          {serial},
        guild_id    {id},
        moderator   TEXT NOT NULL,
        action      TEXT NOT NULL,
        target      TEXT NOT NULL,
        reason      TEXT NOT NULL,
        detail      TEXT NOT NULL,
        created_at  {real} NOT NULL
    );
    CREATE INDEX IF NOT EXISTS audit_by_guild ON audit_log(guild_id, id);
    """

#: Migration 10, the same on both databases but for the types: Backgammon matches. A match is one row (its length,
#: players, the score as of its last finished game, how many games it has had, and how it ended); its games are
#: linked to it in order, each game in at most one match, and a match's game number taken once: two processes
#: ending the same game can never both start the next one. ``IF NOT EXISTS`` keeps the script harmless when a test
#: winds ``schema_version`` back over it (no column is added to an existing table for the same reason).
_MATCHES = """
    CREATE TABLE IF NOT EXISTS matches (
        id          {serial},
        length      {id} NOT NULL,
        players     TEXT NOT NULL,
        score       TEXT NOT NULL,
        games       {id} NOT NULL DEFAULT 0,
        status      TEXT NOT NULL CHECK (status IN ('active', 'finished', 'cancelled')),
        winner      TEXT,
        created_at  {real} NOT NULL,
        updated_at  {real} NOT NULL
    );
    CREATE TABLE IF NOT EXISTS match_games (
        match_id    {id} NOT NULL REFERENCES matches(id),
        number      {id} NOT NULL,
        game_id     {id} NOT NULL UNIQUE REFERENCES games(id) ON DELETE CASCADE,
        PRIMARY KEY (match_id, number)
    );
    """

#: Migration 11, the same on both databases but for the types: tournaments (:mod:`data.store.tournaments`). One row
#: per tournament: what it plays (the game, the format, the option words every game of it takes, the table sizes),
#: who organised it, where it lives (server, channel), its signup (who joined, in order; the most players; when the
#: signup closes) and, once started, its whole state as the JSON of :class:`bot.competition.Tournament`, under a
#: ``version`` that every write raises (a write names the version it read, so two processes never record a result
#: twice nor pair a round twice). ``tournament_games`` links each game to its tournament, round and board (a board
#: replayed, after a drawn knock-out game or a cancelled one, is a new ``attempt``; one game per attempt, which
#: the unique index enforces) and says whether its result is recorded yet (the sweep records those a crash left).
_TOURNAMENTS = """
    CREATE TABLE IF NOT EXISTS tournaments (
        id            {serial},
        game_type     TEXT NOT NULL,
        format        TEXT NOT NULL,
        options       TEXT NOT NULL,
        table_sizes   TEXT NOT NULL,
        rounds        {id},
        organiser     TEXT NOT NULL,
        status        TEXT NOT NULL CHECK (status IN ('signup', 'running', 'finished', 'cancelled')),
        max_players   {id},
        signup_until  {real},
        guild_id      {id},
        channel_id    {id},
        entrants      TEXT NOT NULL,
        state         TEXT,
        version       {id} NOT NULL,
        created_at    {real} NOT NULL,
        updated_at    {real} NOT NULL
    );
    CREATE INDEX IF NOT EXISTS tournaments_by_guild ON tournaments(guild_id, status);
    CREATE INDEX IF NOT EXISTS tournaments_by_organiser ON tournaments(organiser, status);
    CREATE TABLE IF NOT EXISTS tournament_games (
        game_id        {id} PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
        tournament_id  {id} NOT NULL REFERENCES tournaments(id) ON DELETE CASCADE,
        round          {id} NOT NULL,
        board          {id} NOT NULL,
        attempt        {id} NOT NULL,
        recorded       {id} NOT NULL DEFAULT 0
    );
    CREATE UNIQUE INDEX IF NOT EXISTS tournament_games_once ON tournament_games(tournament_id, round, board, attempt);
    CREATE INDEX IF NOT EXISTS tournament_games_unrecorded ON tournament_games(recorded, game_id);
    """

#: Migration 11 on SQLite also lets the timers table hold a tournament's signup deadline (kind ``tournament``):
#: SQLite cannot change a CHECK constraint, so the table is made again with the new one and its rows (and the
#: high-water mark of its ids, which are never reused) copied over.
_TOURNAMENT_TIMERS_SQLITE = """
    CREATE TABLE IF NOT EXISTS timers_v11 (
        id       INTEGER PRIMARY KEY AUTOINCREMENT,
        due_at   REAL NOT NULL,
        kind     TEXT NOT NULL CHECK (kind IN ('clock', 'proposal', 'vacation', 'deliver', 'tournament')),
        game_id  INTEGER REFERENCES games(id) ON DELETE CASCADE,
        player_id TEXT,
        ref      INTEGER,
        data     TEXT NOT NULL DEFAULT '{}'
    );
    INSERT INTO timers_v11 (id, due_at, kind, game_id, player_id, ref, data)
        SELECT id, due_at, kind, game_id, player_id, ref, data FROM timers;
    DELETE FROM sqlite_sequence WHERE name = 'timers_v11';
    INSERT INTO sqlite_sequence (name, seq) SELECT 'timers_v11', seq FROM sqlite_sequence WHERE name = 'timers';
    DROP TABLE timers;
    ALTER TABLE timers_v11 RENAME TO timers;
    CREATE INDEX IF NOT EXISTS timers_due ON timers(due_at);
    CREATE INDEX IF NOT EXISTS timers_by_game ON timers(game_id, kind);
    """

#: The same on PostgreSQL, which changes the constraint in place.
_TOURNAMENT_TIMERS_PG = """
    ALTER TABLE timers DROP CONSTRAINT IF EXISTS timers_kind_check;
    ALTER TABLE timers ADD CONSTRAINT timers_kind_check
        CHECK (kind IN ('clock', 'proposal', 'vacation', 'deliver', 'tournament'));
    """

MIGRATIONS: tuple[str, ...] = (
    # 1: players, games, the move log, challenges, settings
    """
    CREATE TABLE players (
        id          TEXT PRIMARY KEY,
        discord_id  INTEGER UNIQUE,
        created_at  REAL NOT NULL
    );
    CREATE TABLE games (
        id           INTEGER PRIMARY KEY,
        type         TEXT NOT NULL,
        options      TEXT NOT NULL,
        players      TEXT NOT NULL,
        seed         INTEGER NOT NULL,
        status       TEXT NOT NULL CHECK (status IN ('active', 'finished', 'cancelled')),
        move_number  INTEGER NOT NULL DEFAULT 0,
        log_length   INTEGER NOT NULL DEFAULT 0,
        to_move      TEXT,
        snapshot     TEXT NOT NULL,
        outcome      TEXT,
        guild_id     INTEGER,
        channel_id   INTEGER,
        thread_id    INTEGER,
        created_at   REAL NOT NULL,
        updated_at   REAL NOT NULL
    );
    CREATE TABLE game_players (
        game_id    INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        seat       INTEGER NOT NULL,
        player_id  TEXT NOT NULL REFERENCES players(id),
        PRIMARY KEY (game_id, seat)
    );
    CREATE INDEX game_players_by_player ON game_players(player_id, game_id);
    CREATE INDEX games_by_status ON games(status, type);
    CREATE TABLE moves (
        game_id     INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        seq         INTEGER NOT NULL,
        number      INTEGER NOT NULL,
        player_id   TEXT,
        text        TEXT NOT NULL,
        events      TEXT NOT NULL,
        auto        INTEGER NOT NULL DEFAULT 0,
        created_at  REAL NOT NULL,
        PRIMARY KEY (game_id, seq)
    ) WITHOUT ROWID;
    CREATE TABLE challenges (
        id          INTEGER PRIMARY KEY,
        type        TEXT NOT NULL,
        options     TEXT NOT NULL,
        players     TEXT NOT NULL,
        accepted    TEXT NOT NULL,
        status      TEXT NOT NULL CHECK (status IN ('open', 'accepted', 'declined', 'cancelled', 'expired')),
        game_id     INTEGER REFERENCES games(id),
        guild_id    INTEGER,
        channel_id  INTEGER,
        message_id  INTEGER,
        created_at  REAL NOT NULL,
        expires_at  REAL
    );
    CREATE INDEX challenges_open ON challenges(status, expires_at);
    CREATE TABLE settings (
        player_id  TEXT NOT NULL,
        key        TEXT NOT NULL,
        value      TEXT NOT NULL,
        PRIMARY KEY (player_id, key)
    ) WITHOUT ROWID;
    CREATE TABLE meta (
        key    TEXT PRIMARY KEY,
        value  TEXT NOT NULL
    ) WITHOUT ROWID;
    """,
    # 2: listings filter on whose turn it is in SQL; games keep append-only memory (Drogo's positions seen, for
    # superko) in chunks outside the snapshot, so a move writes one small chunk instead of the whole history
    """
    CREATE INDEX games_by_to_move ON games(to_move, status);
    CREATE TABLE game_memory (
        game_id  INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        chunk    INTEGER NOT NULL,
        data     BLOB NOT NULL,
        PRIMARY KEY (game_id, chunk)
    ) WITHOUT ROWID;
    """,
    # 3: correspondence play. Games keep their clock (JSON; NULL: untimed, which every game from before clocks
    # stays, so its rules do not change under its players) and the deadline of the player to move. Deadlines,
    # warnings, reminders, vacations' ends, proposals' ends and held pings are rows of one table, indexed by due
    # time, which one sweep reads. Existing active games get their reminder timer.
    """
    ALTER TABLE games ADD COLUMN clock TEXT;
    ALTER TABLE games ADD COLUMN deadline REAL;
    CREATE INDEX games_by_deadline ON games(status, deadline);
    CREATE TABLE timers (
        id       INTEGER PRIMARY KEY AUTOINCREMENT,
        due_at   REAL NOT NULL,
        kind     TEXT NOT NULL CHECK (kind IN ('clock', 'proposal', 'vacation', 'deliver')),
        game_id  INTEGER REFERENCES games(id) ON DELETE CASCADE,
        player_id TEXT,
        ref      INTEGER,
        data     TEXT NOT NULL DEFAULT '{}'
    );
    CREATE INDEX timers_due ON timers(due_at);
    CREATE INDEX timers_by_game ON timers(game_id, kind);
    CREATE TABLE vacations (
        player_id  TEXT PRIMARY KEY REFERENCES players(id),
        balance    REAL NOT NULL,
        as_of      REAL NOT NULL,
        since      REAL
    ) WITHOUT ROWID;
    CREATE TABLE proposals (
        id          INTEGER PRIMARY KEY,
        game_id     INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        kind        TEXT NOT NULL CHECK (kind IN ('undo', 'draw')),
        proposer    TEXT NOT NULL,
        log_length  INTEGER NOT NULL,
        accepted    TEXT NOT NULL,
        status      TEXT NOT NULL CHECK (status IN ('open', 'accepted', 'rejected', 'expired', 'void')),
        channel_id  INTEGER,
        message_id  INTEGER,
        created_at  REAL NOT NULL,
        expires_at  REAL
    );
    CREATE INDEX proposals_by_game ON proposals(game_id, status);
    CREATE TABLE queued_lines (
        id          INTEGER PRIMARY KEY,
        game_id     INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        player_id   TEXT NOT NULL,
        moves       TEXT NOT NULL,
        created_at  REAL NOT NULL
    );
    CREATE INDEX queued_by_game ON queued_lines(game_id, player_id);
    INSERT INTO timers (due_at, kind, game_id)
        SELECT updated_at + 86400, 'clock', id FROM games WHERE status = 'active';
    """,
    # 4: ratings. One rating per player per game type (openskill's mu and sigma, the conservative estimate
    # leaderboards sort by, and the statistics shown beside it), the same statistics per variant (with a copy of
    # the game type's estimate, so a variant's leaderboard reads one index), and what each rated game did to each
    # of its players: their place, their result, the rating before and after, and the game's place in the order
    # games were rated (``seq``), which a rebuild follows to reproduce the same numbers.
    """
    CREATE TABLE ratings (
        player_id   TEXT NOT NULL REFERENCES players(id),
        game_type   TEXT NOT NULL,
        mu          REAL NOT NULL,
        sigma       REAL NOT NULL,
        score       REAL NOT NULL,
        games       INTEGER NOT NULL DEFAULT 0,
        wins        INTEGER NOT NULL DEFAULT 0,
        losses      INTEGER NOT NULL DEFAULT 0,
        draws       INTEGER NOT NULL DEFAULT 0,
        points_won  INTEGER NOT NULL DEFAULT 0,
        points_lost INTEGER NOT NULL DEFAULT 0,
        streak      INTEGER NOT NULL DEFAULT 0,
        updated_at  REAL NOT NULL,
        PRIMARY KEY (player_id, game_type)
    ) WITHOUT ROWID;
    CREATE INDEX ratings_board ON ratings(game_type, score DESC, player_id);
    CREATE TABLE rating_variants (
        player_id   TEXT NOT NULL REFERENCES players(id),
        game_type   TEXT NOT NULL,
        variant     TEXT NOT NULL,
        score       REAL NOT NULL,
        games       INTEGER NOT NULL DEFAULT 0,
        wins        INTEGER NOT NULL DEFAULT 0,
        losses      INTEGER NOT NULL DEFAULT 0,
        draws       INTEGER NOT NULL DEFAULT 0,
        points_won  INTEGER NOT NULL DEFAULT 0,
        points_lost INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (player_id, game_type, variant)
    ) WITHOUT ROWID;
    CREATE INDEX rating_variants_board ON rating_variants(game_type, variant, score DESC, player_id);
    CREATE TABLE rating_changes (
        game_id       INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        player_id     TEXT NOT NULL REFERENCES players(id),
        seq           INTEGER NOT NULL,
        game_type     TEXT NOT NULL,
        variant       TEXT NOT NULL,
        place         INTEGER NOT NULL,
        result        TEXT NOT NULL CHECK (result IN ('win', 'loss', 'draw')),
        points        INTEGER NOT NULL,
        mu_before     REAL NOT NULL,
        sigma_before  REAL NOT NULL,
        mu_after      REAL NOT NULL,
        sigma_after   REAL NOT NULL,
        created_at    REAL NOT NULL,
        PRIMARY KEY (game_id, player_id)
    ) WITHOUT ROWID;
    CREATE INDEX rating_changes_by_player ON rating_changes(player_id, game_type, seq);
    CREATE INDEX rating_changes_by_seq ON rating_changes(seq);
    """,
    # 5: open challenges. Besides the players it names, a challenge may keep ``open_seats`` seats for anyone to
    # take; those who took one are ``joined`` (JSON, in the order they came; they sit after the named players).
    # ``rating_min`` / ``rating_max`` bound who may take an open seat (NULL: no bound). Listings read a server's
    # open challenges by guild.
    """
    ALTER TABLE challenges ADD COLUMN open_seats INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE challenges ADD COLUMN joined TEXT NOT NULL DEFAULT '[]';
    ALTER TABLE challenges ADD COLUMN rating_min INTEGER;
    ALTER TABLE challenges ADD COLUMN rating_max INTEGER;
    CREATE INDEX challenges_by_guild ON challenges(guild_id, status);
    """,
    # 6: the players pbm has seen in each Discord server (they used a command there, were named in one, or played
    # a game there): a server's leaderboard shows them. Filled at once from the games already played in servers.
    """
    CREATE TABLE guild_players (
        guild_id   INTEGER NOT NULL,
        player_id  TEXT NOT NULL REFERENCES players(id),
        PRIMARY KEY (guild_id, player_id)
    ) WITHOUT ROWID;
    INSERT INTO guild_players (guild_id, player_id)
        SELECT DISTINCT g.guild_id, p.player_id FROM games g JOIN game_players p ON p.game_id = g.id
        WHERE g.guild_id IS NOT NULL;
    """,
    # 7: a variant is named by its options minus the defaults (see _VARIANT_RENAMED)
    _RENAME_VARIANTS,
    # 8: server settings and the moderators' audit log (see _SERVER_SETTINGS)
    _SERVER_SETTINGS.format(id="INTEGER", real="REAL", serial="INTEGER PRIMARY KEY"),
    # 9: the web front's sign-ins. A session is a browser signed in as a player (its cookie holds a random token;
    # only the token's SHA-256 is kept, so whoever reads the database cannot sign in with it), with the token its
    # forms must carry (``csrf``) and whether it was made by trusted local play (valid only while that lasts). A
    # link is a one-time sign-in (``pbm web-link``, Discord's /web), used at most once before it expires. (IF NOT
    # EXISTS: a database put back to an older version by hand, with these tables still in it, migrates again.)
    """
    CREATE TABLE IF NOT EXISTS web_sessions (
        id          TEXT PRIMARY KEY,
        player_id   TEXT NOT NULL REFERENCES players(id),
        csrf        TEXT NOT NULL,
        trusted     INTEGER NOT NULL DEFAULT 0,
        created_at  REAL NOT NULL,
        expires_at  REAL NOT NULL
    ) WITHOUT ROWID;
    CREATE INDEX IF NOT EXISTS web_sessions_by_player ON web_sessions(player_id);
    CREATE INDEX IF NOT EXISTS web_sessions_by_expiry ON web_sessions(expires_at);
    CREATE TABLE IF NOT EXISTS web_links (
        id          TEXT PRIMARY KEY,
        player_id   TEXT NOT NULL REFERENCES players(id),
        created_at  REAL NOT NULL,
        expires_at  REAL NOT NULL,
        used_at     REAL
    ) WITHOUT ROWID;
    CREATE INDEX IF NOT EXISTS web_links_by_expiry ON web_links(expires_at);
    """,
    # 10: Backgammon matches (see _MATCHES)
    _MATCHES.format(id="INTEGER", real="REAL", serial="INTEGER PRIMARY KEY"),
    # 11: tournaments, their games, and the signup deadline as a timer (see _TOURNAMENTS)
    _TOURNAMENTS.format(id="INTEGER", real="REAL", serial="INTEGER PRIMARY KEY") + _TOURNAMENT_TIMERS_SQLITE,
)

#: The same migrations for PostgreSQL: the same tables, columns, indexes and constraints under the same numbers,
#: so ``schema_version`` means the same on both. SQLite's INTEGER (64 bits) is BIGINT here, REAL is DOUBLE
#: PRECISION, BLOB is BYTEA, an ``INTEGER PRIMARY KEY`` is an identity column, and ``WITHOUT ROWID`` has no
#: counterpart (every PostgreSQL table is a heap with its primary key as an index).
PG_MIGRATIONS: tuple[str, ...] = (
    # 1: players, games, the move log, challenges, settings
    """
    CREATE TABLE players (
        id          TEXT PRIMARY KEY,
        discord_id  BIGINT UNIQUE,
        created_at  DOUBLE PRECISION NOT NULL
    );
    CREATE TABLE games (
        id           BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
        type         TEXT NOT NULL,
        options      TEXT NOT NULL,
        players      TEXT NOT NULL,
        seed         BIGINT NOT NULL,
        status       TEXT NOT NULL CHECK (status IN ('active', 'finished', 'cancelled')),
        move_number  BIGINT NOT NULL DEFAULT 0,
        log_length   BIGINT NOT NULL DEFAULT 0,
        to_move      TEXT,
        snapshot     TEXT NOT NULL,
        outcome      TEXT,
        guild_id     BIGINT,
        channel_id   BIGINT,
        thread_id    BIGINT,
        created_at   DOUBLE PRECISION NOT NULL,
        updated_at   DOUBLE PRECISION NOT NULL
    );
    CREATE TABLE game_players (
        game_id    BIGINT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        seat       BIGINT NOT NULL,
        player_id  TEXT NOT NULL REFERENCES players(id),
        PRIMARY KEY (game_id, seat)
    );
    CREATE INDEX game_players_by_player ON game_players(player_id, game_id);
    CREATE INDEX games_by_status ON games(status, type);
    CREATE TABLE moves (
        game_id     BIGINT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        seq         BIGINT NOT NULL,
        number      BIGINT NOT NULL,
        player_id   TEXT,
        text        TEXT NOT NULL,
        events      TEXT NOT NULL,
        auto        BIGINT NOT NULL DEFAULT 0,
        created_at  DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (game_id, seq)
    );
    CREATE TABLE challenges (
        id          BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
        type        TEXT NOT NULL,
        options     TEXT NOT NULL,
        players     TEXT NOT NULL,
        accepted    TEXT NOT NULL,
        status      TEXT NOT NULL CHECK (status IN ('open', 'accepted', 'declined', 'cancelled', 'expired')),
        game_id     BIGINT REFERENCES games(id),
        guild_id    BIGINT,
        channel_id  BIGINT,
        message_id  BIGINT,
        created_at  DOUBLE PRECISION NOT NULL,
        expires_at  DOUBLE PRECISION
    );
    CREATE INDEX challenges_open ON challenges(status, expires_at);
    CREATE TABLE settings (
        player_id  TEXT NOT NULL,
        key        TEXT NOT NULL,
        value      TEXT NOT NULL,
        PRIMARY KEY (player_id, key)
    );
    CREATE TABLE meta (
        key    TEXT PRIMARY KEY,
        value  TEXT NOT NULL
    );
    """,
    # 2: the to-move index; game memory in chunks
    """
    CREATE INDEX games_by_to_move ON games(to_move, status);
    CREATE TABLE game_memory (
        game_id  BIGINT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        chunk    BIGINT NOT NULL,
        data     BYTEA NOT NULL,
        PRIMARY KEY (game_id, chunk)
    );
    """,
    # 3: correspondence play: clocks, timers, vacations, proposals, queued lines
    """
    ALTER TABLE games ADD COLUMN clock TEXT;
    ALTER TABLE games ADD COLUMN deadline DOUBLE PRECISION;
    CREATE INDEX games_by_deadline ON games(status, deadline);
    CREATE TABLE timers (
        id       BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
        due_at   DOUBLE PRECISION NOT NULL,
        kind     TEXT NOT NULL CHECK (kind IN ('clock', 'proposal', 'vacation', 'deliver')),
        game_id  BIGINT REFERENCES games(id) ON DELETE CASCADE,
        player_id TEXT,
        ref      BIGINT,
        data     TEXT NOT NULL DEFAULT '{}'
    );
    CREATE INDEX timers_due ON timers(due_at);
    CREATE INDEX timers_by_game ON timers(game_id, kind);
    CREATE TABLE vacations (
        player_id  TEXT PRIMARY KEY REFERENCES players(id),
        balance    DOUBLE PRECISION NOT NULL,
        as_of      DOUBLE PRECISION NOT NULL,
        since      DOUBLE PRECISION
    );
    CREATE TABLE proposals (
        id          BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
        game_id     BIGINT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        kind        TEXT NOT NULL CHECK (kind IN ('undo', 'draw')),
        proposer    TEXT NOT NULL,
        log_length  BIGINT NOT NULL,
        accepted    TEXT NOT NULL,
        status      TEXT NOT NULL CHECK (status IN ('open', 'accepted', 'rejected', 'expired', 'void')),
        channel_id  BIGINT,
        message_id  BIGINT,
        created_at  DOUBLE PRECISION NOT NULL,
        expires_at  DOUBLE PRECISION
    );
    CREATE INDEX proposals_by_game ON proposals(game_id, status);
    CREATE TABLE queued_lines (
        id          BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
        game_id     BIGINT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        player_id   TEXT NOT NULL,
        moves       TEXT NOT NULL,
        created_at  DOUBLE PRECISION NOT NULL
    );
    CREATE INDEX queued_by_game ON queued_lines(game_id, player_id);
    INSERT INTO timers (due_at, kind, game_id)
        SELECT updated_at + 86400, 'clock', id FROM games WHERE status = 'active';
    """,
    # 4: ratings: per player and game type, per variant, and each rated game's changes
    """
    CREATE TABLE ratings (
        player_id   TEXT NOT NULL REFERENCES players(id),
        game_type   TEXT NOT NULL,
        mu          DOUBLE PRECISION NOT NULL,
        sigma       DOUBLE PRECISION NOT NULL,
        score       DOUBLE PRECISION NOT NULL,
        games       BIGINT NOT NULL DEFAULT 0,
        wins        BIGINT NOT NULL DEFAULT 0,
        losses      BIGINT NOT NULL DEFAULT 0,
        draws       BIGINT NOT NULL DEFAULT 0,
        points_won  BIGINT NOT NULL DEFAULT 0,
        points_lost BIGINT NOT NULL DEFAULT 0,
        streak      BIGINT NOT NULL DEFAULT 0,
        updated_at  DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (player_id, game_type)
    );
    CREATE INDEX ratings_board ON ratings(game_type, score DESC, player_id);
    CREATE TABLE rating_variants (
        player_id   TEXT NOT NULL REFERENCES players(id),
        game_type   TEXT NOT NULL,
        variant     TEXT NOT NULL,
        score       DOUBLE PRECISION NOT NULL,
        games       BIGINT NOT NULL DEFAULT 0,
        wins        BIGINT NOT NULL DEFAULT 0,
        losses      BIGINT NOT NULL DEFAULT 0,
        draws       BIGINT NOT NULL DEFAULT 0,
        points_won  BIGINT NOT NULL DEFAULT 0,
        points_lost BIGINT NOT NULL DEFAULT 0,
        PRIMARY KEY (player_id, game_type, variant)
    );
    CREATE INDEX rating_variants_board ON rating_variants(game_type, variant, score DESC, player_id);
    CREATE TABLE rating_changes (
        game_id       BIGINT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        player_id     TEXT NOT NULL REFERENCES players(id),
        seq           BIGINT NOT NULL,
        game_type     TEXT NOT NULL,
        variant       TEXT NOT NULL,
        place         BIGINT NOT NULL,
        result        TEXT NOT NULL CHECK (result IN ('win', 'loss', 'draw')),
        points        BIGINT NOT NULL,
        mu_before     DOUBLE PRECISION NOT NULL,
        sigma_before  DOUBLE PRECISION NOT NULL,
        mu_after      DOUBLE PRECISION NOT NULL,
        sigma_after   DOUBLE PRECISION NOT NULL,
        created_at    DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (game_id, player_id)
    );
    CREATE INDEX rating_changes_by_player ON rating_changes(player_id, game_type, seq);
    CREATE INDEX rating_changes_by_seq ON rating_changes(seq);
    """,
    # 5: open challenges: seats for anyone, who took them, the rating range
    """
    ALTER TABLE challenges ADD COLUMN open_seats BIGINT NOT NULL DEFAULT 0;
    ALTER TABLE challenges ADD COLUMN joined TEXT NOT NULL DEFAULT '[]';
    ALTER TABLE challenges ADD COLUMN rating_min BIGINT;
    ALTER TABLE challenges ADD COLUMN rating_max BIGINT;
    CREATE INDEX challenges_by_guild ON challenges(guild_id, status);
    """,
    # 6: the players seen in each Discord server, for its leaderboard
    """
    CREATE TABLE guild_players (
        guild_id   BIGINT NOT NULL,
        player_id  TEXT NOT NULL REFERENCES players(id),
        PRIMARY KEY (guild_id, player_id)
    );
    INSERT INTO guild_players (guild_id, player_id)
        SELECT DISTINCT g.guild_id, p.player_id FROM games g JOIN game_players p ON p.game_id = g.id
        WHERE g.guild_id IS NOT NULL;
    """,
    # 7: a variant is named by its options minus the defaults
    _RENAME_VARIANTS,
    # 8: server settings and the moderators' audit log
    _SERVER_SETTINGS.format(
        id="BIGINT", real="DOUBLE PRECISION", serial="BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY"
    ),
    # 9: the web front's sessions and one-time sign-in links
    """
    CREATE TABLE IF NOT EXISTS web_sessions (
        id          TEXT PRIMARY KEY,
        player_id   TEXT NOT NULL REFERENCES players(id),
        csrf        TEXT NOT NULL,
        trusted     BIGINT NOT NULL DEFAULT 0,
        created_at  DOUBLE PRECISION NOT NULL,
        expires_at  DOUBLE PRECISION NOT NULL
    );
    CREATE INDEX IF NOT EXISTS web_sessions_by_player ON web_sessions(player_id);
    CREATE INDEX IF NOT EXISTS web_sessions_by_expiry ON web_sessions(expires_at);
    CREATE TABLE IF NOT EXISTS web_links (
        id          TEXT PRIMARY KEY,
        player_id   TEXT NOT NULL REFERENCES players(id),
        created_at  DOUBLE PRECISION NOT NULL,
        expires_at  DOUBLE PRECISION NOT NULL,
        used_at     DOUBLE PRECISION
    );
    CREATE INDEX IF NOT EXISTS web_links_by_expiry ON web_links(expires_at);
    """,
    # 10: Backgammon matches
    _MATCHES.format(id="BIGINT", real="DOUBLE PRECISION", serial="BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY"),
    # 11: tournaments, their games, and the signup deadline as a timer
    _TOURNAMENTS.format(
        id="BIGINT", real="DOUBLE PRECISION", serial="BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY"
    )
    + _TOURNAMENT_TIMERS_PG,
)
