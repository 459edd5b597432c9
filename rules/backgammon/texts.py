"""Backgammon's help and notation texts, as ``help`` and ``/help backgammon`` give them."""

HELP = """\
Two players race their 15 checkers around 24 points and off the board. X travels from point 1 up to 24 and \
bears off beyond 24; O travels from 24 down to 1 and bears off beyond 1. At the start each player rolls one \
die; the higher roll plays O, moves first and uses both of those dice (with -force, the first player named is O).

Each turn the server rolls two dice for you. Move one checker per die, or one checker twice; a double gives four \
moves. A point held by two or more enemy checkers is closed. Landing on a lone enemy checker hits it: it goes \
to the bar and must come back in (O enters on 19-24, X on 1-6) before its owner moves anything else. You must \
use both dice if you can, otherwise one, the larger when either alone fits. Once all 15 of your checkers are in \
your home board (X: 19-24, O: 1-6) you may bear off; a die larger than needed may remove your farthest checker. \
When a roll cannot be played, or only one result is possible, the server plays it for you.

Modes: `greedy` bears off automatically when every die can take a checker off. `manual` lets you `double` \
before rolling when the cube is centred or yours; then send `roll`. Doubled? `roll` (or `take`) accepts and \
you own the cube at twice the value; `drop` refuses and loses the game at the old value.

Scoring: the cube value, doubled (gammon) if the loser bore off nothing, tripled (backgammon) if the loser still \
has a checker on the bar or in the winner's home board (pbmserv counts this even when the loser bore some off). \
Resigning gives the winner the cube value. With -jacoby (money games) gammons and backgammons count only once the \
cube was turned.

Matches: -match=n plays games one after another until a player has n points; each game's points (capped at what \
the winner needs) go to its winner, and the next game starts at once. In the first game after a player reaches one \
point from winning (the Crawford game) nobody may double; -nocrawford drops that rule. Resigning, or running out \
of time, loses the whole match."""

NOTATION = """\
Points are the numbers on the board; B = bar, H = home (off). List single moves with commas: `13-7,8-7`. \
`13:6` moves from 13 with the 6. Repeat with `2x13-10`, `2*13-10` or `13-10(2)`. From the bar you may write \
just the entry point (`22`); when bearing off, just the point (`3`). A move over several dice (`24-13`) works \
when it is clear. gnubg style works too: `13/7 8/7`, `bar/22`, `6/off`, `24/18*/13`."""
