"""One-line explanations of why a command that talks to Discord failed (``tabula run``, ``tabula sync``).

A server admin running the bot should read what went wrong and what to do, never a traceback.
"""

from __future__ import annotations

import datetime

#: Discord's JSON error code for "Max number of daily application command creates has been reached (200)".
DAILY_COMMAND_CREATES = 30034


def unreachable(error: BaseException) -> str | None:
    """The sentence for a connection that never reached Discord (DNS, refused, TLS, timeout), else None.

    Parameters
    ----------
    error : BaseException
        What ``discord.Client.start``/``login`` raised.
    """
    import aiohttp
    import discord

    if isinstance(error, aiohttp.ClientConnectorError | aiohttp.ServerTimeoutError | TimeoutError
                  | discord.GatewayNotFound) or (isinstance(error, OSError) and not isinstance(error, FileNotFoundError)):
        reason = getattr(error, "os_error", None) or error
        text = str(getattr(reason, "strerror", None) or reason).strip() or type(error).__name__
        return (f"Could not reach Discord ({text}). Check this machine's network connection, DNS and any "
                "proxy or firewall, then try again.")
    return None


def wait_text(seconds: float) -> str:
    """``3600`` → ``'1 h 0 min'``; under a minute in seconds."""
    seconds = max(0.0, float(seconds))
    if seconds < 60:
        return f"{seconds:.0f} s"
    delta = datetime.timedelta(seconds=round(seconds))
    hours, rest = divmod(delta.seconds, 3600)
    hours += delta.days * 24
    return f"{hours} h {rest // 60} min" if hours else f"{rest // 60} min {rest % 60} s"


def explain(error: BaseException, what: str) -> str | None:
    """One line saying why ``what`` (e.g. "syncing the commands") failed, or None for an unexpected error.

    Handles: no connection; rate limited (``discord.RateLimited``: how long Discord asks to wait);
    the daily command-creation limit (HTTP 400, code 30034); any other HTTP error from Discord.
    """
    import discord

    line = unreachable(error)
    if line is not None:
        return line
    if isinstance(error, discord.RateLimited):
        return (f"Discord is rate limiting {what}: it asks to wait {wait_text(error.retry_after)} "
                f"({error.retry_after:.0f} s). Run the command again after that.")
    if isinstance(error, discord.HTTPException):
        if error.code == DAILY_COMMAND_CREATES:
            return (f"Discord's daily limit on creating slash commands is reached (200 a day per application) "
                    f"while {what}; try again tomorrow. Commands already synced keep working.")
        text = error.text or error.response.reason or "no reason given"
        return f"Discord answered HTTP {error.status} (code {error.code}) while {what}: {text}"
    return None


def report(error: BaseException, command: str, what: str) -> int:
    """Print ``explain``'s line for ``error`` as ``tabula COMMAND: ...`` on stderr and return the exit
    status 1; re-raise an error it cannot explain (a bug, to be seen whole)."""
    import sys

    line = explain(error, what)
    if line is None:
        raise error
    print(f"tabula {command}: {line}", file=sys.stderr)
    return 1
