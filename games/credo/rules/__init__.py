"""Credo's rules by area (rule text: shared/seeds/003_a89d0bca05ff4a91.txt; rulings: RULINGS.md)."""
