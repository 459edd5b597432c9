"""Backgammon as pbmserv played it: X (eks) and O (ohs), the doubling cube, greedy and manual modes.

Points are numbered 1..24 as on pbmserv's board. X moves 1 -> 24 and bears off past 24; O moves 24 -> 1 and bears
off past 1. Internally each colour's checkers are kept in that colour's own frame (see :mod:`.movegen`): O's pip
equals the absolute point, X's pip is ``25 - point``; pip 25 is the bar and pip 0 the borne-off tray.

A turn is a small state machine (``phase``): ``decide`` (manual mode, the player may double: waiting for roll or
double), ``answer`` (a double is offered: the opponent is to move and takes with ``roll`` or drops) and ``move``
(dice rolled, a play is due). Dice are always rolled by the engine from the state's :class:`Rng`.

The moves and how a play is written are in :mod:`.moves`, move generation in :mod:`.movegen`, reading typed
plays in :mod:`.notation`, the match score in :mod:`.match` and the help texts in :mod:`.texts`.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from rules.backgammon.match import MAX_LENGTH, Match, MatchEnd, end_text
from rules.backgammon.movegen import BAR, HIT_SHIFT, OFF, Step, decode, generate, pack, unpack
from rules.backgammon.moves import (
    COLOUR_NAMES,
    EKS,
    OHS,
    Double,
    Drop,
    NoMove,
    Play,
    Roll,
    Take,
    Toggle,
    absolute,
    dice_text,
    point_name,
    steps_text,
)
from rules.backgammon.notation import Board, Reading, apply_step, interpret, step_problem, tokenize
from rules.backgammon.texts import HELP, NOTATION
from rules.base import (
    AmbiguousMoveError,
    Event,
    GameDef,
    GameState,
    IllegalMoveError,
    LegalMoves,
    Option,
    OptionError,
    Outcome,
    StateFormatError,
)
from rules.rng import Rng

#: pips of the standard start, the same in each colour's own frame
START = (0, 0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0)
MAX_CUBE = 64
MOVE, DECIDE, ANSWER = "move", "decide", "answer"
MODES = ("greedy", "manual")
#: the words besides modes and checker plays that a player can send
COMMANDS = ("roll", "take", "drop", "double", "no move", "pass")


# ----------------------------------------------------------------------------------------------------------------
# State


class BackgammonState(GameState):
    """A game of Backgammon between ``players[0]`` and ``players[1]``; ``colour[seat]`` says who is X and O."""

    #: set while :meth:`push_preview` plays a move: no die is rolled then (the dice are not known before the move)
    _hold_roll = False

    def __init__(self, options: Mapping[str, Any], players: Sequence[str], seed: int) -> None:
        super().__init__(options, players, seed)
        if len(self.players) != 2:
            raise OptionError(f"Backgammon is played by exactly 2 players, not {len(self.players)}")
        self.rng = Rng(seed)
        self.points: list[list[int]] = [list(START), list(START)]
        self.greedy = [False, False]
        self.manual = [False, False]
        self.cube = 1
        self.cube_owner: int | None = None
        self.opening: list[list[int]] = []
        first, second = self._opening_roll()
        o_seat = 0 if self.options.get("force") or first > second else 1
        self.colour = [OHS if seat == o_seat else EKS for seat in range(2)]
        self.turn = o_seat
        self.phase = MOVE
        self.dice: tuple[int, ...] = (first, second) if o_seat == 0 else (second, first)
        self.last: dict[str, Any] | None = None
        self._plays: dict[int, Play] | None = None
        length = int(self.options.get("match") or 0)
        #: the match this game is part of (``None``: a money game); a match's later games get theirs from
        #: :meth:`next_game`
        self.match: Match | None = Match(length, rule=not self.options.get("nocrawford")) if length else None

    @classmethod
    def from_points(
        cls,
        players: Sequence[str],
        x: Mapping[int | str, int],
        o: Mapping[int | str, int],
        dice: tuple[int, int],
        mover: str = "O",
        seed: int = 0,
    ) -> BackgammonState:
        """A game set up at an arbitrary position, for tests, benchmarks and analysis.

        ``x`` and ``o`` map board points (1..24, or ``"bar"``) to checker counts; checkers not placed are borne
        off. ``players[0]`` plays O. ``mover`` ("X" or "O") has ``dice`` to play.
        """
        state = cls({"force": True}, players, seed)
        for colour, placed in ((EKS, x), (OHS, o)):
            side = [0] * 26
            for point, count in placed.items():
                side[BAR if point == "bar" else absolute(colour, int(point))] += count
            side[OFF] = 15 - sum(side)
            state.points[colour] = side
        state._load(
            {
                **state._dump(),
                "points": state.points,
                "turn": state.seat_of_colour(COLOUR_NAMES.index(mover)),
                "dice": list(dice),
            }
        )
        return state

    def _opening_roll(self) -> tuple[int, int]:
        """One die per seat, rolled again while they tie; every roll is kept for the record."""
        while True:
            first, second = self.rng.die(), self.rng.die()
            self.opening.append([first, second])
            if first != second:
                return first, second

    # ---- small queries -----------------------------------------------------------------------------------

    def seat_of_colour(self, colour: int) -> int:
        return self.colour.index(colour)

    def name(self, seat: int) -> str:
        return self.players[seat]

    def pips(self, colour: int) -> int:
        """Pip count: how far a colour's checkers still have to travel."""
        side = self.points[colour]
        return sum(pip * side[pip] for pip in range(1, 26))

    def may_double(self, seat: int) -> bool:
        crawford = self.match is not None and self.match.crawford
        return self.cube < MAX_CUBE and self.cube_owner in (None, seat) and not crawford

    # ---- the match ---------------------------------------------------------------------------------------

    def match_end(self) -> MatchEnd | None:
        """What this finished game did to its match (``None``: a money game, a game still running, or one
        cancelled, which cancels the match). A game won on the board (borne off, a double refused) adds its points
        to the winner's score; a resignation, a timeout or a moderator's decision gives the match to the winner."""
        outcome = self._outcome
        if self.match is None or outcome is None or outcome.cancelled or not outcome.winners:
            return None
        winner = outcome.winners[0]
        if self.resigned or outcome.cause:
            return self.match.forfeited(winner)
        return self.match.after(winner, outcome.points)

    def match_text(self) -> str:
        """The match in one line (empty for a money game): while the game runs, the score before it; once it is
        over, what it did to the match."""
        if self.match is None:
            return ""
        end = self.match_end()
        if self._outcome is not None and self._outcome.cancelled:
            return _sentence(f"{self.match.describe(self.players)}: cancelled with this game")
        if end is None:
            return _sentence(self.match.describe(self.players))
        outcome = self._outcome
        assert outcome is not None
        return _sentence(end_text(self.players, self.match, end, outcome.points))

    def next_game(self, seed: int) -> BackgammonState | None:
        """The match's next game, between the same players with the same options, its opening roll rolled again
        from ``seed``; ``None`` when this game is not a finished game of a match that goes on."""
        end = self.match_end()
        if end is None or end.next is None:
            return None
        state = type(self)(self.options, self.players, seed)
        state.match = end.next
        return state

    def all_home(self, colour: int) -> bool:
        side = self.points[colour]
        return not any(side[7:26])

    @property
    def to_move(self) -> int | None:
        if self._outcome is not None:
            return None
        return 1 - self.turn if self.phase == ANSWER else self.turn

    # ---- legal moves -------------------------------------------------------------------------------------

    def plays(self) -> dict[int, Play]:
        """Resulting position key -> play, for the rolled dice (empty outside the move phase or with no play)."""
        if self._plays is None:
            self._plays = {}
            if self.phase == MOVE and self._outcome is None:
                colour = self.colour[self.turn]
                found = generate(list(self.points[colour]), self.points[1 - colour], *self.dice)
                self._plays = {key: Play(colour, decode(codes)) for key, codes in found.items()}
        return self._plays

    def turn_context(self) -> str:
        return dice_text(self.dice) if self.phase == MOVE and self.dice else ""

    def _moves(self) -> Iterator[Any]:
        seat = self.to_move
        if seat is None:
            return
        if self.phase == MOVE:
            yield from self.plays().values() or [NoMove()]
        elif self.phase == ANSWER:
            yield Take()
            yield Drop()
        else:
            yield Roll()
            yield Double()
        for mode in MODES:
            yield Toggle(seat, mode)

    def _contains(self, move: object) -> bool:
        if isinstance(move, Play):
            return self.phase == MOVE and self._play_key(move) in self.plays()
        return move in list(self._moves())

    def _play_key(self, play: Play) -> int | None:
        """The position a play leads to (by replaying its steps), or ``None`` if it does not fit the board."""
        if self.to_move is None or play.colour != self.colour[self.turn]:
            return None
        me = list(self.points[play.colour])
        opp = self.points[1 - play.colour]
        hits = 0
        for step in play.steps:
            if not me[step.src]:
                return None
            me[step.src] -= 1
            me[step.dest] += 1
            if 0 < step.dest < BAR and opp[25 - step.dest] == 1:
                hits |= 1 << step.dest
        return pack(me) | (hits << HIT_SHIFT)

    @property
    def legal_moves(self) -> LegalMoves:
        return LegalMoves(self._moves, self._contains)

    def _forced_move(self) -> Any | None:
        """No play: skip. One resulting position: play it. Greedy and all home: the play bearing off with every die."""
        if self.phase != MOVE:
            return None
        plays = self.plays()
        if not plays:
            return NoMove()
        if len(plays) == 1:
            return next(iter(plays.values()))
        if self.greedy[self.turn] and self.all_home(self.colour[self.turn]):
            for play in plays.values():
                if all(step.dest == OFF for step in play.steps):
                    return play
        return None

    # ---- reading moves -----------------------------------------------------------------------------------

    def parse_move(self, text: str, player: int | None = None) -> Any:
        word = " ".join(text.strip().lower().split())
        if word in MODES:
            if self._outcome is not None:
                raise IllegalMoveError(text, "the game is over")
            seat = self.to_move if player is None else player
            if seat not in (0, 1):
                raise IllegalMoveError(text, "only the two players can change their modes")
            return Toggle(seat, word)
        if word not in COMMANDS:
            tokenize(text)  # not notation at all: say so first, whoever sends it
        try:
            self.check_turn(player)
        except IllegalMoveError as exc:
            raise IllegalMoveError(text, exc.reason) from None
        if self.phase == ANSWER:
            return self._parse_answer(text, word)
        if self.phase == DECIDE:
            return self._parse_decide(text, word)
        return self._parse_play(text, word)

    def _parse_answer(self, text: str, word: str) -> Any:
        if word in ("roll", "take"):
            return Take()
        if word == "drop":
            return Drop()
        doubler = self.name(self.turn)
        raise IllegalMoveError(text, f"{doubler} has doubled to {self.cube * 2}: take it (or roll) or drop to refuse")

    def _parse_decide(self, text: str, word: str) -> Any:
        if word == "roll":
            return Roll()
        if word == "double":
            return Double()
        if word in ("take", "drop"):
            raise IllegalMoveError(text, "no double has been offered to you")
        raise IllegalMoveError(text, "you are in manual mode: send roll (or double) before moving")

    def _parse_play(self, text: str, word: str) -> Any:
        plays = self.plays()
        if word in COMMANDS[:4]:
            reasons = {
                "roll": f"your dice are already rolled ({dice_text(self.dice)}): play them",
                "double": self._why_no_double(self.turn),
            }
            raise IllegalMoveError(text, reasons.get(word, "no double has been offered to you"))
        if word in ("no move", "pass"):
            if plays:
                raise IllegalMoveError(
                    text, f"you can play {dice_text(self.dice)}: for example {next(iter(plays.values()))}"
                )
            return NoMove()
        colour = self.colour[self.turn]
        segments = tokenize(text)
        board = self._reading_board(colour)
        try:
            dice = self.dice * 2 if self.dice[0] == self.dice[1] else self.dice
            readings = interpret(board, segments, dice, lambda point: self._pip_of(colour, point))
        except IllegalMoveError as exc:
            raise IllegalMoveError(text, exc.reason) from None
        most = len(next(iter(plays.values())).steps) if plays else 0
        # complete plays only: a partial play can end where a longer play would (6-H with 6-5 vs 6-1,1-H)
        legal = {r.key: r for r in readings if r.key in plays and len(r.steps) == most}
        if len(legal) == 1:
            return plays[next(iter(legal))]
        if len(legal) > 1:
            options = " or ".join(steps_text(colour, reading.steps) for reading in legal.values())
            raise AmbiguousMoveError(
                text,
                f"this can be played in more than one way with different results ({options}): write the single steps",
            )
        if not plays:
            raise IllegalMoveError(text, f"{dice_text(self.dice)} cannot be played at all: send no move")
        best = max(readings, key=lambda reading: len(reading.steps))
        raise IllegalMoveError(text, self._why_not_maximal(board, best, plays))

    def _why_no_double(self, seat: int) -> str:
        """Why ``seat``, whose dice are rolled, could not double at the start of this turn."""
        if self.match is not None and self.match.crawford:
            return CRAWFORD_REFUSAL
        if self.cube_owner is not None and self.cube_owner != seat:
            owner = self.name(self.cube_owner)
            return f"{owner} owns the cube: you can double only when it is in the middle or yours"
        if self.cube >= MAX_CUBE:
            return f"the cube is already at {MAX_CUBE}, its highest value"
        if not self.manual[seat]:
            return "you can double only before rolling, in manual mode: send manual to turn it on for your next turn"
        return "you can double only before rolling, and your dice are already rolled"

    def _reading_board(self, colour: int) -> Board:
        opponent = self.name(self.seat_of_colour(1 - colour))
        return Board(list(self.points[colour]), self.points[1 - colour], lambda pip: absolute(colour, pip), opponent)

    @staticmethod
    def _pip_of(colour: int, point: int | str) -> int:
        if point == "B":
            return BAR
        if point == "H":
            return OFF
        return absolute(colour, int(point))

    def _why_not_maximal(self, board: Board, reading: Reading, plays: dict[int, Play]) -> str:
        """The refusal for a legal-looking but incomplete play, with one concrete full play as the example."""
        colour = self.colour[self.turn]
        example = next(iter(plays.values()))
        most = len(example.steps)
        written = steps_text(colour, reading.steps)
        if len(reading.steps) == most:
            big = max(self.dice)
            return f"only one die can be played, and then it must be the larger one ({big}): {example} is possible"
        if most == 2:
            need = "you must use both dice"
        elif most == 4:
            need = "you must use all four dice"
        else:
            need = f"you must play as many dice as you can ({most} here)"
        extension = self._extension(board, reading, most, plays)
        if extension is not None:
            return f"{need}: {written} then {steps_text(colour, extension)} is possible"
        return f"{need}, which {written} does not allow: {example} is possible"

    def _extension(self, board: Board, reading: Reading, most: int, plays: dict[int, Play]) -> tuple[Step, ...] | None:
        """Steps continuing ``reading`` into a full legal play, if there are any."""
        me, hits = unpack(reading.key)

        def search(me: list[int], hits: int, dice: tuple[int, ...], done: tuple[Step, ...]) -> tuple[Step, ...] | None:
            if len(reading.steps) + len(done) == most:
                return done if (pack(me) | (hits << HIT_SHIFT)) in plays else None
            for index, die in enumerate(dice):
                for src in range(BAR, 0, -1):
                    if me[src] and step_problem(board, me, src, die) is None:
                        work = list(me)
                        step, new_hits = apply_step(board, work, hits, src, die)
                        found = search(work, new_hits, dice[:index] + dice[index + 1 :], (*done, step))
                        if found is not None:
                            return found
            return None

        return search(me, hits, reading.dice_left, ())

    # ---- applying moves ----------------------------------------------------------------------------------

    def _push(self, move: Any) -> list[Event]:
        if isinstance(move, Toggle):
            events = self._toggle(move)
        elif isinstance(move, Roll):
            events = self._roll_command()
        elif isinstance(move, Take):
            events = self._take()
        elif isinstance(move, Drop):
            events = self._drop()
        elif isinstance(move, Double):
            events = self._double()
        elif isinstance(move, NoMove):
            events = self._no_move()
        elif isinstance(move, Play):
            events = self._play(move)
        else:
            raise IllegalMoveError(str(move), "not a backgammon move")
        self._plays = None
        return events

    def _toggle(self, move: Toggle) -> list[Event]:
        if move.mode not in MODES or move.seat not in (0, 1):
            raise IllegalMoveError(str(move), "not a mode of a player in this game")
        flags = self.greedy if move.mode == "greedy" else self.manual
        flags[move.seat] = not flags[move.seat]
        state = "on" if flags[move.seat] else "off"
        events = [
            Event(
                "mode",
                f"{self.name(move.seat)} turned {move.mode} mode {state}",
                move.seat,
                {move.mode: flags[move.seat]},
            )
        ]
        if move.mode == "manual" and not flags[move.seat] and self.phase == DECIDE and self.turn == move.seat:
            events.extend(self._roll())
        return events

    def _roll_command(self) -> list[Event]:
        if self.phase == DECIDE:
            return self._roll()
        if self.phase == ANSWER:
            return self._take()
        raise IllegalMoveError("roll", f"your dice are already rolled ({dice_text(self.dice)})")

    def _take(self) -> list[Event]:
        if self.phase != ANSWER:
            raise IllegalMoveError("take", "no double has been offered to you")
        taker = 1 - self.turn
        self.cube *= 2
        self.cube_owner = taker
        text = f"{self.name(taker)} took the double: the cube is at {self.cube}, owned by {self.name(taker)}"
        return [Event("take", text, taker, {"cube": self.cube}), *self._roll()]

    def _drop(self) -> list[Event]:
        if self.phase != ANSWER:
            raise IllegalMoveError("drop", "no double has been offered to you")
        outcome = self._refused_outcome()
        self._finish(outcome)
        dropper = 1 - self.turn
        return [Event("drop", outcome.reason, dropper, {"points": outcome.points, "winner": self.turn})]

    def _refused_outcome(self) -> Outcome:
        """The doubler wins the cube value before the double (BG-5, R-6)."""
        points = self.cube
        unit = f"point{'s' if points > 1 else ''}"
        reason = f"{self.name(1 - self.turn)} refused the double: {self.name(self.turn)} wins {points} {unit}"
        return Outcome((self.turn,), reason, None, points)

    def _double(self) -> list[Event]:
        if self.match is not None and self.match.crawford:
            raise IllegalMoveError("double", CRAWFORD_REFUSAL)
        if self.phase != DECIDE or not self.may_double(self.turn):
            raise IllegalMoveError("double", "you cannot double now")
        self.phase = ANSWER
        opponent = self.name(1 - self.turn)
        text = f"{self.name(self.turn)} doubles to {self.cube * 2}: {opponent}, take or drop"
        return [Event("double", text, self.turn, {"cube": self.cube * 2})]

    def push_preview(self, move: Any) -> list[Event]:
        """:meth:`push`, stopping before any roll the move leads to: the player who would roll is left to roll."""
        self._hold_roll = True
        try:
            return self.push(move)
        finally:
            del self._hold_roll

    def _roll(self) -> list[Event]:
        if self._hold_roll:
            self.dice = ()
            self.phase = DECIDE
            return [Event("roll", f"then {self.name(self.turn)} rolls", self.turn, {"dice": []})]
        self.dice = (self.rng.die(), self.rng.die())
        self.phase = MOVE
        text = f"{self.name(self.turn)} rolled {dice_text(self.dice)}"
        return [Event("roll", text, self.turn, {"dice": list(self.dice)})]

    def _no_move(self) -> list[Event]:
        if self.phase != MOVE or self.plays():
            raise IllegalMoveError("no move", "there is a legal play")
        colour = self.colour[self.turn]
        self.last = {"kind": "skip", "colour": colour, "dice": list(self.dice), "steps": []}
        text = f"{self.name(self.turn)} cannot move with {dice_text(self.dice)}"
        events = [Event("skip", text, self.turn, {"dice": list(self.dice)})]
        return events + self._next_turn()

    def _play(self, move: Play) -> list[Event]:
        if self.phase != MOVE or self._play_key(move) not in self.plays():
            raise IllegalMoveError(str(move), "that is not a legal play now")
        seat = self.turn
        colour = self.colour[seat]
        me, opp = self.points[colour], self.points[1 - colour]
        events = [Event("move", f"{self.name(seat)} played {move}", seat, {"play": str(move)})]
        for step in move.steps:
            me[step.src] -= 1
            me[step.dest] += 1
            if step.hit:
                opp[25 - step.dest] -= 1
                opp[BAR] += 1
                where = absolute(colour, step.dest)
                victim = self.name(1 - seat)
                events.append(
                    Event("hit", f"{self.name(seat)} hit {victim}'s checker on {where}", seat, {"point": where})
                )
        self.last = {
            "kind": "play",
            "colour": colour,
            "dice": list(self.dice),
            "steps": [[step.src, step.dest, step.hit] for step in move.steps],
        }
        if me[OFF] == 15:
            return events + self._win(seat)
        return events + self._next_turn()

    def _next_turn(self) -> list[Event]:
        self.turn = 1 - self.turn
        self.dice = ()
        if self.manual[self.turn] and self.may_double(self.turn):
            self.phase = DECIDE
            return []
        return self._roll()

    def _win(self, seat: int) -> list[Event]:
        loser = self.points[1 - self.colour[seat]]
        if any(loser[19:26]):
            kind, factor = "backgammon", 3
        elif loser[OFF] == 0:
            kind, factor = "gammon", 2
        else:
            kind, factor = "single game", 1
        if factor > 1 and self.cube == 1 and self.options.get("jacoby"):
            kind, factor = f"single game (no {kind}: the cube was not turned, -jacoby)", 1
        points = factor * self.cube
        cube = f", cube {self.cube}" if self.cube > 1 else ""
        reason = f"{self.name(seat)} bore off all 15 checkers: {kind}{cube} ({points} point{'s' if points > 1 else ''})"
        self.dice = ()
        self._finish(Outcome((seat,), reason, None, points))
        return [Event("win", reason, seat, {"points": points, "kind": kind})]

    def adopt_dice(self, later: GameState) -> None:
        self.rng = Rng(later.rng.state)  # type: ignore[attr-defined]

    def carry_context(self, saved: Mapping[str, Any]) -> None:
        """A match's later game starts from the score before it, which its options do not say: taken from the
        game's saved state (where it never changes), so its log replays in the same match context."""
        board = saved.get("board")
        self.match = Match.from_json(board.get("match") if isinstance(board, Mapping) else None)

    def _resign_outcome(self, player: int, winner: int) -> Outcome:
        """A resignation scores 1 x cube (BG-5). Resigning while answering a double is refusing it: logs written
        before ``drop`` was a move of its own recorded a drop as ``resign``, and they replay to the same result."""
        if self.match is not None:  # who wins the match, and at what score, is the match's line (match_text)
            return Outcome((winner,), f"{self.name(player)} resigned the match", None, 1)
        if self.phase == ANSWER and player == 1 - self.turn:
            return self._refused_outcome()
        points = self.cube
        unit = f"point{'s' if points > 1 else ''}"
        return Outcome(
            (winner,), f"{self.name(player)} resigned: {self.name(winner)} wins {points} {unit}", None, points
        )

    def resign(self, player: int) -> list[Event]:
        """As every game resigns; in a match, a resignation queued out of turn says it is the match's."""
        events = super().resign(player)
        if self.match is not None and events[0].data.get("queued"):
            text = f"{self.name(player)} will resign the match when their turn comes"
            events[0] = Event(events[0].kind, text, player, events[0].data)
        return events

    def _resign(self, player: int, *, timed_out: bool = False) -> list[Event]:
        """As every game resigns; in a match, the resignation is said to be the match's, and its winner's line is
        what it did to the match (``alice wins the match to 5; the score stood at alice 1, bob 3``), said once."""
        events = super()._resign(player, timed_out=timed_out)
        if self.match is not None and self._outcome is not None:
            words = {"resign": f"{self.name(player)} resigned the match", "win": self.match_text()}
            events = [Event(e.kind, words.get(e.kind, e.text), e.player, e.data) for e in events]
        return events

    # ---- text board --------------------------------------------------------------------------------------

    def _slot(self, point: int, row: int, top: bool) -> str:
        """Two characters for one point on one row: a checker letter, a count in the last row, or blanks."""
        x, o = self.points[EKS][25 - point], self.points[OHS][point]
        count, letter = (x, "X") if x else (o, "O")
        level = row if top else 4 - row
        if count > 5 and level == 4:
            return f"{count:>2}"
        return f" {letter}" if count > level else "  "

    def _bar_slot(self, colour: int, row: int, top: bool) -> str:
        count = self.points[colour][BAR]
        level = row if top else 4 - row
        if count > 5 and level == 4:
            return f"{count:>2} "
        return f" {COLOUR_NAMES[colour]} " if count > level else "   "

    def _half(self, points: Sequence[int], row: int, top: bool) -> str:
        return "|" + "  ".join(self._slot(p, row, top) for p in points) + " |"

    def text_board(self) -> str:
        top_left, top_right = range(13, 19), range(19, 25)
        low_left, low_right = range(12, 6, -1), range(6, 0, -1)
        blank = "|" + " " * 23 + "|"
        lines = [blank + "   " + blank]
        lines.append(
            "|" + "  ".join(f"{p:>2}" for p in top_left) + " |   |" + "  ".join(f"{p:>2}" for p in top_right) + " |"
        )
        for row in range(5):
            home = f" X off: {self.points[EKS][OFF]}" if row == 0 else ""
            lines.append(
                self._half(top_left, row, True)
                + self._bar_slot(EKS, row, True)
                + self._half(top_right, row, True)
                + home
            )
        lines.append(blank + "BAR" + blank + "HOME")
        for row in range(5):
            home = f" O off: {self.points[OHS][OFF]}" if row == 4 else ""
            lines.append(
                self._half(low_left, row, False)
                + self._bar_slot(OHS, row, False)
                + self._half(low_right, row, False)
                + home
            )
        lines.append(
            "|" + "  ".join(f"{p:>2}" for p in low_left) + " |   |" + "  ".join(f"{p:>2}" for p in low_right) + " |"
        )
        lines.append("")
        lines.extend(self._status_lines())
        return "\n".join(lines)

    def _status_lines(self) -> list[str]:
        lines = []
        for colour, direction in ((EKS, "moves 1 -> 24"), (OHS, "moves 24 -> 1")):
            seat = self.seat_of_colour(colour)
            modes = [mode for mode, flags in (("greedy", self.greedy), ("manual", self.manual)) if flags[seat]]
            mode_text = f", {' and '.join(modes)} mode" if modes else ""
            off = self.points[colour][OFF]
            lines.append(
                f"{COLOUR_NAMES[colour]}: {self.name(seat)} ({direction}), "
                f"pips {self.pips(colour)}, {off} off{mode_text}"
            )
        owner = "centred" if self.cube_owner is None else f"owned by {self.name(self.cube_owner)}"
        lines.append(f"Cube: {self.cube} ({owner})")
        if self.ply == 0 and self.opening:
            rolls = "; ".join(f"{self.name(0)} {a}, {self.name(1)} {b}" for a, b in self.opening)
            forced = " (-force)" if self.options.get("force") else ""
            lines.append(f"Opening roll: {rolls}{forced}")
        if self.last is not None:
            lines.append(self._last_line(self.last))
        lines.append(self._turn_line())
        if self.match is not None:
            lines.append(self.match_text())
        return lines

    def _last_line(self, last: dict[str, Any]) -> str:
        colour = last["colour"]
        who = self.name(self.seat_of_colour(colour))
        if last["kind"] == "skip":
            return f"Last: {who} could not move with {dice_text(last['dice'])}"
        steps = steps_text(colour, [Step(*step) for step in last["steps"]])
        return f"Last: {who} rolled {dice_text(last['dice'])} and played {steps}"

    def _turn_line(self) -> str:
        if self._outcome is not None:
            return f"Game over: {self._outcome.reason}"
        seat = self.turn
        who = f"{self.name(seat)} ({COLOUR_NAMES[self.colour[seat]]})"
        if self.phase == DECIDE:
            return f"{who} to roll or double"
        if self.phase == ANSWER:
            taker = 1 - seat
            return f"{self.name(taker)} to answer the double to {self.cube * 2}: roll to take, drop to refuse"
        return f"{who} to play {dice_text(self.dice)}"

    # ---- serialisation -----------------------------------------------------------------------------------

    def _dump(self) -> dict[str, Any]:
        return {
            "points": [list(side) for side in self.points],
            "colour": list(self.colour),
            "turn": self.turn,
            "phase": self.phase,
            "dice": list(self.dice),
            "cube": self.cube,
            "cube_owner": self.cube_owner,
            "greedy": list(self.greedy),
            "manual": list(self.manual),
            "rng": self.rng.state,
            "opening": [list(pair) for pair in self.opening],
            "last": self.last,
            **({} if self.match is None else {"match": self.match.to_json()}),
        }

    def _load(self, data: Mapping[str, Any]) -> None:
        points = [[int(n) for n in side] for side in data["points"]]
        if len(points) != 2 or any(len(side) != 26 or min(side) < 0 or sum(side) != 15 for side in points):
            raise StateFormatError("backgammon board: each colour needs 26 non-negative counts adding up to 15")
        for point in range(1, 25):
            if points[EKS][25 - point] and points[OHS][point]:
                raise StateFormatError(f"backgammon board: both colours on point {point}")
        colour = [int(c) for c in data["colour"]]
        if sorted(colour) != [EKS, OHS]:
            raise StateFormatError("backgammon: the two seats must play X and O")
        phase = str(data["phase"])
        dice = tuple(int(d) for d in data["dice"])
        if phase not in (MOVE, DECIDE, ANSWER) or any(not 1 <= d <= 6 for d in dice):
            raise StateFormatError("backgammon: bad phase or dice")
        if phase == MOVE and len(dice) != 2 and self._outcome is None:
            raise StateFormatError("backgammon: a move is due but no dice are rolled")
        cube, owner = int(data["cube"]), data["cube_owner"]
        if cube not in (1, 2, 4, 8, 16, 32, 64) or owner not in (None, 0, 1):
            raise StateFormatError("backgammon: bad cube")
        turn = int(data["turn"])
        if turn not in (0, 1):
            raise StateFormatError("backgammon: bad turn")
        self.points = points
        self.colour = colour
        self.turn = turn
        self.phase = phase
        self.dice = dice
        self.cube, self.cube_owner = cube, owner
        self.greedy = [bool(f) for f in data["greedy"]]
        self.manual = [bool(f) for f in data["manual"]]
        if len(self.greedy) != 2 or len(self.manual) != 2:
            raise StateFormatError("backgammon: modes need one flag per seat")
        self.rng = Rng(int(data["rng"]))
        self.opening = [[int(a), int(b)] for a, b in data["opening"]]
        self.last = _checked_last(data["last"])
        self.match = Match.from_json(data.get("match"))
        self._plays = None


def _sentence(text: str) -> str:
    """A line that starts with a word of ours (``match ...``) capitalised; one that starts with a name as it is."""
    return text[0].upper() + text[1:] if text.startswith("match") else text


def _checked_last(raw: Any) -> dict[str, Any] | None:
    """The last play record of a saved state, checked because the renderer draws from it."""
    if raw is None:
        return None
    last = {
        "kind": str(raw["kind"]),
        "colour": int(raw["colour"]),
        "dice": [int(d) for d in raw["dice"]],
        "steps": [[int(src), int(dest), bool(hit)] for src, dest, hit in raw["steps"]],
    }
    if last["kind"] not in ("play", "skip") or last["colour"] not in (EKS, OHS):
        raise StateFormatError("backgammon: bad record of the last play")
    if any(not (0 < src <= BAR and 0 <= dest < src) for src, dest, _hit in last["steps"]):
        raise StateFormatError("backgammon: bad step in the last play")
    return last


def _validate(options: dict[str, Any], nplayers: int) -> dict[str, Any]:
    if nplayers != 2:
        raise OptionError(f"Backgammon is played by exactly 2 players, not {nplayers}")
    if options.get("nocrawford") and not options.get("match"):
        raise OptionError("-nocrawford is for matches: give the match's length too, like -match=5 -nocrawford")
    if options.get("jacoby") and options.get("match"):
        raise OptionError("-jacoby is for money games: in a match every gammon and backgammon counts")
    return options


#: the refusal of a double in the Crawford game
CRAWFORD_REFUSAL = "no doubling in the Crawford game (the first game after a player reached match point minus one)"


GAME = GameDef(
    name="backgammon",
    title="Backgammon",
    summary="The classic race of 15 checkers around 24 points, with the doubling cube",
    options=(
        Option("force", bool, False, "the first player named plays O and moves first"),
        Option(
            "match",
            int,
            0,
            "play a match to n points: games follow one another, the score carried, with the Crawford rule",
            minimum=1,
            maximum=MAX_LENGTH,
            ranges=f"1..{MAX_LENGTH} points; without it each game stands alone",
        ),
        Option("nocrawford", bool, False, "a match without the Crawford rule: doubling in every game"),
        Option("jacoby", bool, False, "a money game where gammons and backgammons count only once the cube was turned"),
    ),
    min_players=2,
    max_players=2,
    state_class=BackgammonState,
    help=HELP,
    notation=NOTATION,
    validate=_validate,
    extra_commands=("greedy", "manual", "roll", "double", "take", "drop"),
    draws=False,
    final_commands=("roll", "double", "take", "drop"),
)
BackgammonState.game = GAME

__all__ = [
    "COLOUR_NAMES",
    "EKS",
    "GAME",
    "OHS",
    "BackgammonState",
    "Double",
    "Drop",
    "NoMove",
    "Play",
    "Roll",
    "Take",
    "Toggle",
    "absolute",
    "dice_text",
    "point_name",
    "steps_text",
]
