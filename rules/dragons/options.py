"""Dragons challenge options (pbmserv spelling), their cross-checks, and the game's help texts.

Option families that each answer one question may not be mixed (rules-notes D9): the goal (how a game is won
during play: the default loop of six, or one of -long_loop, -loop_closed, -end_first, -end_single, -end_most; or
no win during play: -tantrix, -all_out_most_eyes), the tiebreak when the pool runs out (-tie_*), the tile set
(-cross / -tails), the start tile (-start_joint / -start_tip) and the gap rule (-must_complete / -may_complete).
-tie_* and -num_eyes do not mix with the goals that score the played-out pool (-tantrix, -all_out_most_eyes),
and the loop-length goals need the crossed tiles, as the help file says.

Readings where the help file is silent (rules-notes D9 is the frame): a "completed" dragon is a closed one (no open
end) with at least -num_eyes holes, and -num_eyes also applies to the loop goals; when both players qualify in one
move the longer loop (loop goals) or the dragon with more holes (-end_first) wins and equals draw; -end_most
compares with every enemy dragon on the board; "largest" is the number of tile segments. With -may_complete a move
whose placement or auto moves would give any empty cell a fourth closed side is refused, so the rules' "never
more than three closed sides" holds there too. No band runs straight through a tile, so no loop has exactly five
tiles and -long_loop plays like the default.
"""

from __future__ import annotations

from typing import Any

from rules.base import Option, OptionError

DEFAULT_TILES = 50
TANTRIX_TILES = 40

GOALS = ("long_loop", "loop_closed", "end_first", "end_single", "end_most", "all_out_most_eyes", "tantrix")
TIES = ("tie_none", "tie_largest_wins", "tie_largest_loses")
#: goals that play the pool out and score at the end, so a tiebreak option means nothing with them
SCORED_GOALS = ("all_out_most_eyes", "tantrix")
#: goals that read loop length, which needs the crossed tiles (the help file says so for both)
CROSSED_GOALS = ("long_loop", "loop_closed")

OPTIONS: tuple[Option, ...] = (
    Option("num_tiles", int, None, "tiles in the shared pool (50, or 40 with -tantrix)", 3, 200),
    Option("tantrix", bool, False, "Tantrix scoring: play out the pool, best dragon scores its holes, x2 if closed"),
    Option("start_joint", bool, False, "the game starts with a shoulder tile in the centre", conflicts=("start_tip",)),
    Option("start_tip", bool, False, "the game starts with a tail tile in the centre"),
    Option("num_eyes", int, 1, "a dragon needs at least n holes to count as complete or winning", 1, 12),
    Option("end_first", bool, False, "the first closed dragon of either colour, any size, ends and wins the game"),
    Option("end_single", bool, False, "a move that closes dragons for one player only wins for that player"),
    Option("end_most", bool, False, "closing a dragon with more holes than every enemy dragon wins"),
    Option(
        "all_out_most_eyes", bool, False, "no loop win: when the pool empties the closed dragon with most holes wins"
    ),
    Option("tie_none", bool, False, "an empty pool without a win is a draw (the default)"),
    Option("tie_largest_wins", bool, False, "when the pool empties, the owner of the largest closed dragon wins"),
    Option("tie_largest_loses", bool, False, "when the pool empties, the owner of the largest closed dragon loses"),
    Option(
        "cross", bool, False, "new tile set: the three tails of a colour are joined (the default)", conflicts=("tails",)
    ),
    Option("tails", bool, False, "old tile set: the six tails are separate dead ends"),
    Option(
        "must_complete",
        bool,
        False,
        "a three-sided tail gap must be filled next turn (the default)",
        conflicts=("may_complete",),
    ),
    Option("may_complete", bool, False, "three-sided tail gaps may be left open"),
    Option("loop_closed", bool, False, "win with a closed dragon holding a loop bigger than one round eye (crossed)"),
    Option("long_loop", bool, False, "win with a loop through five or more tiles instead of six (crossed)"),
)


def _at_most_one(options: dict[str, Any], family: tuple[str, ...], what: str) -> None:
    given = [name for name in family if options.get(name)]
    if len(given) > 1:
        raise OptionError(f"options -{given[0]} and -{given[1]} cannot be used together: both set {what}")


def validate(options: dict[str, Any], nplayers: int) -> dict[str, Any]:
    """Refuse mixed families and fill the pool size, whose default depends on -tantrix."""
    _at_most_one(options, GOALS, "how the game is won")
    _at_most_one(options, TIES, "what happens when the tiles run out")
    for goal in SCORED_GOALS:
        tie = next((name for name in TIES if options.get(name)), None)
        if options.get(goal) and tie:
            raise OptionError(f"options -{goal} and -{tie} cannot be used together: -{goal} already decides the end")
    for goal in CROSSED_GOALS:
        if options.get(goal) and options.get("tails"):
            raise OptionError(f"option -{goal} needs the crossed tiles and cannot be used with -tails")
    if options.get("tantrix") and options.get("num_eyes", 1) != 1:
        raise OptionError("option -num_eyes cannot be used with -tantrix: Tantrix scoring counts every hole")
    out = dict(options)
    if out.get("num_tiles") is None:
        out["num_tiles"] = TANTRIX_TILES if out.get("tantrix") else DEFAULT_TILES
    return out


def goal(options: dict[str, Any]) -> str:
    """The goal option in force, or ``loop`` for the default six-tile loop."""
    return next((name for name in GOALS if options.get(name)), "loop")


def tiebreak(options: dict[str, Any]) -> str:
    return next((name for name in TIES if options.get(name)), "tie_none")


HELP = """\
**Dragons** (Cameron Browne, 2009). Two players, O (moves first) and X, build one picture from a shared pool of \
hex tiles. Each tile has a shoulder face, where each colour covers three neighbouring edges, and a tail face, \
where the colours alternate. A new tile must touch the picture and every edge must match the colour it meets.

**First tile.** O puts any tile in the centre (-start_joint or -start_tip put one there for you).

**Auto moves.** When a placement leaves an empty spot with three closed sides that only one shoulder fits, that \
shoulder is dropped in at once, and the chain goes on as long as new spots like that appear. All of it counts as \
your move. A spot whose three sides alternate fits only a tail: it is a **gap**, and the next player must fill a \
gap before anything else (-may_complete lifts this, but then no move may close a gap's fourth side). With one \
gap the server fills it for them.

**Winning.** Close a loop of your colour through six or more tiles. The check runs once your whole chain is \
done; if both players close one, the longer loop wins and equal loops draw. An empty pool with no winner is a \
draw unless -tie_largest_wins or -tie_largest_loses settles it.

**Tantrix scoring** (-tantrix, 40 tiles): play the pool out; a dragon scores one point per hole, twice that if \
it has no open ends; the best dragon wins.

Test options: -num_eyes=n, -end_first, -end_single, -end_most, -all_out_most_eyes, -long_loop, -loop_closed, \
-tails (old tiles with separate tail ends), -cross, -must_complete, -tie_none. A closed dragon is one with no open \
ends and at least -num_eyes holes."""

NOTATION = """\
Give a tile letter and a position number: `d3` puts tile d on open spot 3. The board numbers the open spots \
afresh each turn and its legend draws the letters: a-f are the six shoulder turns, g and h the two tail turns \
(i-l also work for g and h). Moves are listed by those numbers. The axial form `d@q,r` (the centre is 0,0) \
names a cell for good, and the history writes it, with each auto move on a line of its own; you may type it \
too: `c@1,-1`."""
