"""Tests of the storage layer (storage/): both backends, migrations, durability."""
