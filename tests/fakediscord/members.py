"""Members' permissions and roles as Discord computes them, for the fake's interactions.

A member's permissions are the guild owner's (everything), or those granted to them by :meth:`FakeDiscord.grant`
(or ``add_member(permissions=...)``), or an ordinary member's (:data:`payloads.MEMBER_PERMISSIONS`), plus the
permissions of their roles; ``administrator`` counts as every permission. Interactions carry them in
``member.permissions``, as Discord sends them.

A command synced with ``default_member_permissions`` is one Discord shows only to members who have every bit it
names (or are administrators, or own the guild): :func:`may_use` says whether a member sees it. The fake's
``slash`` refuses to type a command a member cannot see, as Discord's client would not offer it; a test that
wants to prove the bot does not rely on that sends the same interaction with ``crafted=True``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from tests.fakediscord import payloads as p


@dataclass
class Roles:
    """A guild's roles besides @everyone (role id -> role payload), what each member holds, and permissions
    granted to members one by one."""

    roles: dict[int, dict[str, Any]] = field(default_factory=dict)
    held: dict[int, list[int]] = field(default_factory=dict)
    granted: dict[int, int] = field(default_factory=dict)


def member_permissions(owner_id: int, roles: Roles, user_id: int) -> int:
    """The permissions Discord computes for a member in the guild (channel overwrites are not modelled)."""
    if user_id == owner_id:
        return p.ALL_PERMISSIONS
    bits = roles.granted.get(user_id, p.MEMBER_PERMISSIONS)
    for role_id in roles.held.get(user_id, []):
        bits |= int(roles.roles[role_id]["permissions"])
    if bits & p.PERMISSION_BITS["administrator"]:
        return p.ALL_PERMISSIONS
    return bits


def may_use(command: dict[str, Any], permissions: int) -> bool:
    """Whether Discord shows a synced command to a member with ``permissions``."""
    needed = command.get("default_member_permissions")
    if needed is None:
        return True
    bits = int(needed)
    return permissions & bits == bits or bool(permissions & p.PERMISSION_BITS["administrator"])


def bits_of(*names: str) -> int:
    """The permission bits named (any of ``payloads.PERMISSION_BITS``)."""
    unknown = set(names) - set(p.PERMISSION_BITS)
    if unknown:
        raise ValueError(f"unknown permissions {sorted(unknown)}")
    total = 0
    for name in names:
        total |= p.PERMISSION_BITS[name]
    return total
