"""Drogo's help and notation texts, as ``help`` and ``/help drogo`` give them."""

HELP = """\
**Drogo** is Go built upward. The board is a square of cells (6x6 unless `-size` says otherwise) and each cell \
holds a stack of cubes no taller than the board is wide.

**Your turn.** Put one cube of your colour on top of a stack (or on an empty cell), or two cubes that touch face \
to face: on neighbouring cells at the same level, or one on the other. The very first turn of a game places a \
single cube. A cube may land on an enemy's top cube only if that links it to one of your groups.

**Groups.** Whoever owns the top cube owns the whole stack. Neighbouring stacks (not diagonal) with the same owner \
form a group. A group breathes while one of its stacks sits next to an empty cell.

**Capture.** After your placement, every enemy group that cannot breathe is lifted off whole, whatever colours are \
buried in it. You may not leave your own group breathless, unless your move captures and so frees it. With three \
or four players every other player is an enemy.

**Ko.** A move may not bring back any earlier board position (superko); `-no_superko` turns this off.

**End.** You cannot pass by choice; with no legal placement you pass automatically. When nobody can place, each \
player scores the total height of the stacks they own: the highest wins, a tie for the top is a draw. A game \
also stops, and is scored as it stands, after 4 x size^3 placements (864 on 6x6), superko or not. A player who \
resigns leaves their stacks standing as enemy stacks; they can still be captured.

Options: `-size=n` (3..12), `-single` (always one cube), `-in_place` (captured stacks turn to the capturer's colour \
and stay), `-easy_free` (an empty point beside a stack at any level gives freedom), `-no_superko`.
"""

NOTATION = """\
Cells are a column letter and a row number, a1 at the bottom left. A cube always lands on top of its cell.
`c3`: one cube on c3.
`c3,d3`: two cubes side by side on c3 and d3 (both stacks must be the same height).
`c3,c3`: two cubes on c3, one on the other.
Captures, and forced passes (`pass`), are made for you."""
