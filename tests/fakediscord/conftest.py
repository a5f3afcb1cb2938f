from tests.fakediscord.fixtures import *  # noqa: F403
