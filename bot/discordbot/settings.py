"""Settings of the Discord bot, from the environment or a ``.env`` file (pydantic-settings)."""

from __future__ import annotations

from pydantic import AliasChoices, Field, SecretStr
from pydantic_settings import BaseSettings, SettingsConfigDict

NO_TOKEN_HELP = """\
No Discord bot token found.

Tabula needs the token of a Discord application's bot user to connect:
  1. Open https://discord.com/developers/applications and create an application
     (or pick yours), then open its "Bot" page and press "Reset Token".
  2. Put the token in the environment, or in a file named .env in this folder:
         DISCORD_TOKEN=your-token-here
  3. Invite the bot to your server and sync its commands: see "Running the Discord bot"
     in README.md, then run:  tabula sync --guild YOUR_SERVER_ID  and  tabula run

To play without Discord, in this terminal:
  tabula play barbarian-hordes --players 4 --ai 3
"""


class BotSettings(BaseSettings):
    """Configuration of ``tabula run`` and ``tabula sync``.

    Attributes
    ----------
    discord_token : SecretStr | None
        The bot token (``DISCORD_TOKEN``); never logged.
    db : str
        SQLite database path (``TABULA_DB``), default ``./tabula.db``.
    database : str | None
        Database URL (``TABULA_DATABASE``), e.g. ``postgresql://tabula@dbhost/tabula``; wins
        over ``db``. Needed to run several bot processes (shards) on one database.
    dev_guild : int | None
        A development server id (``TABULA_DEV_GUILD``): ``tabula sync`` copies the commands
        there, where they update at once (global commands can take a while to appear).
    reminder_hours : float
        Default reminder interval (``TABULA_REMINDER_HOURS``), hours: a player whose turn has
        waited this long is pinged, at most once per interval. Sessions and players may change it.
    reminder_check_seconds : float
        How often the reminder task looks for late turns and expired response windows, seconds.
    log_level : str
        ``TABULA_LOG_LEVEL``: DEBUG, INFO, WARNING...
    auto_pass : bool
        ``TABULA_AUTO_PASS`` (default on): a player whose only legal answer is ``pass`` or
        ``done``, when the others know it already, is answered for at once and the table is
        told so in the update, instead of being asked to click.
    """

    model_config = SettingsConfigDict(env_prefix="TABULA_", env_file=".env", extra="ignore")

    discord_token: SecretStr | None = Field(
        None, validation_alias=AliasChoices("DISCORD_TOKEN", "TABULA_DISCORD_TOKEN")
    )
    db: str = "tabula.db"
    database: str | None = None
    dev_guild: int | None = None
    reminder_hours: float = Field(12.0, gt=0)
    reminder_check_seconds: float = Field(300.0, gt=0)
    log_level: str = "INFO"
    auto_pass: bool = True

    def token(self) -> str | None:
        """The token as plain text, or None when unset or blank."""
        if self.discord_token is None:
            return None
        value = self.discord_token.get_secret_value().strip()
        return value or None
